import { type Db, getWorkflowWithLive } from '@atelier/db';
import type { RunEventHub } from '../events/run-event-hub';

type WorkflowWithLive = Awaited<ReturnType<typeof getWorkflowWithLive>>;

/** Workflows kept at most: ids nobody asks for again (a caller probing 404s) must not grow the process. */
const MAX_WORKFLOWS = 1_000;

/**
 * What every run creation reads of the catalog (a workflow with its live version), kept in memory for as
 * long as this process hears every change to the catalog: the tables' triggers announce each committed
 * change, whoever made it, and this process forgets everything it kept when one is announced, when the
 * listening connection is lost or regained, and (synchronously) after its own writes. While changes are
 * not being heard, every read goes to the database.
 *
 * A read that began before a change and ends after it is not kept (the generation moved on), so what is
 * kept was read after the last change heard. What is kept is frozen: every run creation shares it.
 */
export class CatalogCache {
  private readonly workflows = new Map<string, WorkflowWithLive>();
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly hub: RunEventHub,
  ) {
    hub.watchCatalog(() => this.forget());
  }

  async workflowWithLive(id: string): Promise<WorkflowWithLive> {
    if (!this.hub.hearing) {
      // Heard from the next read on; the connection's failure is the hub's to log and retry.
      this.hub.listen().catch(() => undefined);
      return getWorkflowWithLive(this.db, id);
    }
    if (this.workflows.has(id)) return this.workflows.get(id);
    const generation = this.generation;
    const found = deepFreeze(await getWorkflowWithLive(this.db, id));
    if (generation === this.generation && this.hub.hearing) {
      if (this.workflows.size >= MAX_WORKFLOWS) this.workflows.delete(this.workflows.keys().next().value!);
      this.workflows.set(id, found);
    }
    return found;
  }

  /** Forgets everything kept: the catalog changed, or may have. */
  forget(): void {
    this.generation += 1;
    this.workflows.clear();
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const caches = new WeakMap<RunEventHub, CatalogCache>();

/** The gateway's one catalog cache, heard through its one database listener. */
export function catalogCache(services: { db: Db; events: RunEventHub }): CatalogCache {
  let cache = caches.get(services.events);
  if (!cache) {
    cache = new CatalogCache(services.db, services.events);
    caches.set(services.events, cache);
  }
  return cache;
}
