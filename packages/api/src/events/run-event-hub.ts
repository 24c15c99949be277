import pg from 'pg';
import type { Logger } from 'pino';
import {
  type AnnouncedRunEvent,
  type RunOutputDelta,
  TABLE_CHANGES_CHANNEL,
  RUN_EVENTS_CHANNEL,
  parseRunDelta,
  parseRunEventAnnouncement,
} from '@atelier/db';

/** Called with the event announced, or with nothing after a reconnect (anything may have happened). */
type Listener = (event?: AnnouncedRunEvent) => void;

/**
 * One PostgreSQL LISTEN connection per gateway process feeds every open event stream: a notification
 * names the run, and only that run's subscribers wake up to read what is new. The connection is opened
 * on the first subscription and re-opened after an error; subscribers are woken after a reconnect so a
 * notification lost with the connection costs a re-read, never an event. The same connection hears of
 * changes to the tables the process keeps reads of (KeptReads).
 */
export class RunEventHub {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Who hears a run's live output deltas (notifyRunDeltas): announced, never recorded. */
  private readonly deltaListeners = new Map<string, Set<(delta: RunOutputDelta) => void>>();
  /** Listeners to every run's events (a process waiting for many runs at once). */
  private readonly everyRun = new Set<Listener>();
  /** Called with each changed table, and with nothing whenever the connection is lost or regained (changes may have gone unheard). */
  private readonly tableWatchers = new Set<(table?: string) => void>();
  private closed = false;
  /**
   * Whether the connection LISTENs to run events too: from the first subscriber on, not before, since
   * every run event costs each connection listening to it a notification (a gateway that keeps reads
   * but serves no stream hears table changes only).
   */
  private hearsRunEvents = false;
  /** The current connection's LISTEN to run events, once asked for. */
  private runEventsHeard: Promise<unknown> | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    /** Told when the listening connection is lost (it reconnects by itself). */
    private readonly onConnectionLost: (err: Error) => void = (err) =>
      logger.warn({ err }, 'run event listener lost its connection; reconnecting'),
  ) {}

  /**
   * `listener` is woken by the run's recorded events; `onDelta`, when given, gets each live output delta
   * of the run as announced (deltas lost with the connection are not replayed: the step's completion
   * carries its whole output).
   */
  async subscribe(runId: string, listener: Listener, onDelta?: (delta: RunOutputDelta) => void): Promise<() => void> {
    let set = this.listeners.get(runId);
    if (!set) {
      set = new Set();
      this.listeners.set(runId, set);
    }
    set.add(listener);
    let deltas: Set<(delta: RunOutputDelta) => void> | undefined;
    if (onDelta) {
      deltas = this.deltaListeners.get(runId) ?? new Set();
      this.deltaListeners.set(runId, deltas);
      deltas.add(onDelta);
    }
    await this.hearRunEvents();
    return () => {
      set!.delete(listener);
      if (set!.size === 0) this.listeners.delete(runId);
      if (deltas && onDelta) {
        deltas.delete(onDelta);
        if (deltas.size === 0) this.deltaListeners.delete(runId);
      }
    };
  }

  /** Every run's events, each as announced; a reconnect calls the listener with nothing, as for one run. */
  async subscribeAll(listener: Listener): Promise<() => void> {
    this.everyRun.add(listener);
    await this.hearRunEvents();
    return () => this.everyRun.delete(listener);
  }

  /**
   * Calls `watcher` with the table of every committed change announced (TABLE_CHANGES_CHANNEL), and with
   * nothing whenever changes may have gone unheard (the connection lost or regained). Changes are heard
   * only while `hearing` (`listen`).
   */
  watchTables(watcher: (table?: string) => void): () => void {
    this.tableWatchers.add(watcher);
    return () => this.tableWatchers.delete(watcher);
  }

  /** Opens the connection if it is not open (and the hub not closed: a closing gateway opens nothing). */
  listen(): Promise<void> {
    return this.closed ? Promise.resolve() : this.ensureConnected();
  }

  /** Whether the connection is up, so that every change announced from now on will be heard. */
  get hearing(): boolean {
    return this.client !== undefined;
  }

  /** How many streams are open, for tests and metrics. */
  get subscriberCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async hearRunEvents(): Promise<void> {
    this.hearsRunEvents = true;
    await this.ensureConnected();
    const client = this.client;
    // Lost meanwhile: the reconnect listens again and wakes every subscriber.
    if (!client) return;
    this.runEventsHeard ??= client.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
    await this.runEventsHeard;
  }

  private ensureConnected(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (msg) => {
      if (msg.channel === TABLE_CHANGES_CHANNEL) {
        for (const watcher of this.tableWatchers) watcher(msg.payload);
        return;
      }
      const delta = msg.payload ? parseRunDelta(msg.payload) : undefined;
      if (delta) {
        for (const listener of this.deltaListeners.get(delta.runId) ?? []) listener(delta);
        return;
      }
      const event = msg.payload ? parseRunEventAnnouncement(msg.payload) : undefined;
      if (!event) return;
      for (const listener of this.listeners.get(event.runId) ?? []) listener(event);
      for (const listener of this.everyRun) listener(event);
    });
    client.on('error', (err) => {
      this.onConnectionLost(err);
      if (this.client === client) {
        this.client = undefined;
        this.runEventsHeard = undefined;
      }
      for (const watcher of this.tableWatchers) watcher();
      void client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.reconnect(), 500);
    });
    await client.connect();
    const withRunEvents = this.hearsRunEvents;
    await client.query(`LISTEN ${TABLE_CHANGES_CHANNEL}${withRunEvents ? `; LISTEN ${RUN_EVENTS_CHANNEL}` : ''}`);
    this.runEventsHeard = withRunEvents ? Promise.resolve() : undefined;
    this.client = client;
    for (const watcher of this.tableWatchers) watcher();
  }

  private async reconnect(): Promise<void> {
    if (this.closed || (this.listeners.size === 0 && this.everyRun.size === 0 && this.tableWatchers.size === 0)) return;
    try {
      await this.ensureConnected();
      for (const set of this.listeners.values()) for (const listener of set) listener();
      for (const listener of this.everyRun) listener();
    } catch (err) {
      this.logger.warn({ err }, 'run event listener could not reconnect; retrying');
      setTimeout(() => void this.reconnect(), 1_000);
    }
  }
}
