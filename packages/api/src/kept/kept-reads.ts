import type { RunEventHub } from '../events/run-event-hub.js';

/** Values kept at most: keys nobody asks for again (a caller probing 404s) must not grow the process. */
const MAX_KEPT = 1_000;

/**
 * Reads that requests repeat (the workflow a run pins, the API key a request carries), kept in memory for
 * as long as this process hears every change to the tables they read: each table's trigger announces
 * every committed change, whoever made it (TABLE_CHANGES_CHANNEL). Everything kept is forgotten when one
 * of its tables is announced, when the listening connection is lost or regained, and after this
 * process's own writes (`forget`, so that its next request never waits on the notification). While
 * changes are not being heard, every read goes to the database.
 *
 * A read that began before a change and ends after it is not kept (the generation moved on), so what is
 * kept was read after the last change heard. What is kept is frozen: concurrent requests share it.
 */
export class KeptReads<V> {
  private readonly kept = new Map<string, V>();
  private generation = 0;

  constructor(
    private readonly hub: Pick<RunEventHub, 'watchTables' | 'listen' | 'hearing'>,
    tables: readonly string[],
    private readonly read: (key: string) => Promise<V>,
    /** Whether a value read is kept; what is not is read again next time. */
    private readonly keeps: (value: V) => boolean = () => true,
  ) {
    hub.watchTables((table) => {
      if (table === undefined || tables.includes(table)) this.forget();
    });
  }

  async get(key: string): Promise<V> {
    if (!this.hub.hearing) {
      // Kept from the next read on; a failure to connect is the hub's to report, and the read's own.
      this.hub.listen().catch(() => undefined);
      return this.read(key);
    }
    if (this.kept.has(key)) return this.kept.get(key)!;
    const generation = this.generation;
    const value = deepFreeze(await this.read(key));
    if (generation === this.generation && this.hub.hearing && this.keeps(value)) {
      // Oldest first: a Map iterates in insertion order.
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, value);
    }
    return value;
  }

  /** Forgets everything kept: what it was read from changed, or may have. */
  forget(): void {
    this.generation += 1;
    this.kept.clear();
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
