/**
 * Where a phase's time goes, in figures less sensitive to other tenants than wall-clock throughput:
 *
 * - CPU per unit of work (a run, a request, an order's child) by process: this node process (gateway,
 *   worker, bench clients) split by thread, the Temporal server and the embedded PostgreSQL (from /proc);
 * - PostgreSQL work per unit (pg_stat_database): committed transactions, rows inserted and updated, and how
 *   many connections are active, idle in a transaction or waiting on a lock (pg_stat_activity, sampled);
 * - optionally a main-thread CPU profile split by code owner (profiled phases run slower: not measurements);
 * - Temporal history per workflow: events by type and payload bytes.
 */
import type { Client } from '@temporalio/client';
import { type Db, poolStats } from '@atelier/db';
import { type CpuDelta, cpuDelta, sampleCpu } from './cpu';
import { type Infra, rawQuery } from './infra';
import { MainThreadProfiler, type ProfileSummary } from './profile';
import { round1, round3, sleep } from './stats';

export interface PhaseCpu {
  /** CPU ms per unit, by process (node is this one process: gateway, worker, bench clients). */
  perUnitMs: Record<string, number>;
  /** The node process's CPU ms per unit by thread: main (JavaScript), Temporal core (Rust), other threads. */
  nodeThreadsPerUnitMs: Record<string, number>;
  /** Share of the machine's CPU capacity busy during the phase (all tenants), and the share used by this bench's processes. */
  machineBusy: number;
  benchBusy: number;
}

export interface PhaseDb {
  /** Committed transactions (a statement outside a transaction counts as one) per unit, the bench's own queries left out. */
  xactsPerUnit: number;
  rowsInsertedPerUnit: number;
  rowsUpdatedPerUnit: number;
  connections?: ConnectionStates;
}

export interface ConnectionStates {
  samples: number;
  avgOpen: number;
  avgActive: number;
  maxActive: number;
  avgIdleInTransaction: number;
  avgWaitingOnLocks: number;
}

export function cpuSummary(delta: CpuDelta, units: number, infra: Infra): PhaseCpu {
  const per = (ms: number | undefined) => round1((ms ?? 0) / Math.max(1, units));
  const perUnitMs: Record<string, number> = { node: per(delta.cpuMs.node), temporal: per(delta.cpuMs.temporal) };
  // Atelier's own processes, when the bench runs it as npm start does (bench/atelier-processes.ts).
  if (delta.cpuMs.atelier) perUnitMs.atelier = per(delta.cpuMs.atelier);
  if (infra.postgres === 'embedded') perUnitMs.postgres = per(delta.cpuMs.postgres);
  perUnitMs.total = round1(Object.values(perUnitMs).reduce((s, v) => s + v, 0));
  const ours =
    (delta.cpuMs.node ?? 0) +
    (delta.cpuMs.atelier ?? 0) +
    (delta.cpuMs.temporal ?? 0) +
    (delta.cpuMs.postgres ?? 0) +
    (delta.cpuMs.other ?? 0);
  return {
    perUnitMs,
    nodeThreadsPerUnitMs: {
      main: per(delta.cpuMs.nodeMain),
      temporalCore: per(delta.cpuMs.nodeTemporalCore),
      other: per(delta.cpuMs.nodeOtherThreads),
    },
    machineBusy: round3(delta.machineBusyMs / Math.max(1, delta.machineCapacityMs)),
    benchBusy: round3(ours / Math.max(1, delta.machineCapacityMs)),
  };
}

/**
 * Samples pg_stat_activity every `everyMs`: how many of the database's client connections (the stack's
 * pool, a baseline's, the bench's own) are running a statement, idle inside a transaction, or waiting on a lock.
 */
export class PgActivitySampler {
  private readonly samples: Array<{ active: number; idleInTx: number; lockWaits: number; total: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  queries = 0;

  constructor(private readonly db: Db) {}

  start(everyMs = 100): void {
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.queries++;
      rawQuery<{ active: string; idle_in_tx: string; lock_waits: string; total: string }>(
        this.db,
        `select count(*) filter (where state = 'active') as active,
                count(*) filter (where state like 'idle in transaction%') as idle_in_tx,
                count(*) filter (where wait_event_type = 'Lock') as lock_waits,
                count(*) as total
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      )
        .then(([r]) => {
          if (r)
            this.samples.push({
              active: Number(r.active),
              idleInTx: Number(r.idle_in_tx),
              lockWaits: Number(r.lock_waits),
              total: Number(r.total),
            });
        })
        .catch(() => undefined)
        .finally(() => {
          this.busy = false;
        });
    }, everyMs);
  }

  stop(): ConnectionStates {
    clearInterval(this.timer);
    const n = Math.max(1, this.samples.length);
    const avg = (k: 'active' | 'idleInTx' | 'lockWaits' | 'total') => round1(this.samples.reduce((s, x) => s + x[k], 0) / n);
    return {
      samples: this.samples.length,
      avgOpen: avg('total'),
      avgActive: avg('active'),
      maxActive: this.samples.reduce((m, x) => Math.max(m, x.active), 0),
      avgIdleInTransaction: avg('idleInTx'),
      avgWaitingOnLocks: avg('lockWaits'),
    };
  }
}

async function dbCounters(db: Db): Promise<{ xacts: number; inserted: number; updated: number }> {
  const [row] = await rawQuery<{ xact_commit: string; tup_inserted: string; tup_updated: string }>(
    db,
    'select xact_commit, tup_inserted, tup_updated from pg_stat_database where datname = current_database()',
  );
  return { xacts: Number(row?.xact_commit ?? 0), inserted: Number(row?.tup_inserted ?? 0), updated: Number(row?.tup_updated ?? 0) };
}

export interface Metered<T> {
  value: T;
  cpu: PhaseCpu;
  db?: PhaseDb;
  /** Profiled phases only: the main thread's measured CPU per unit, split by code owner in the profile's proportions. */
  mainThreadMsPerUnit?: Record<string, number>;
  hotFunctionsMsPerUnit?: Record<string, number>;
}

/**
 * Measures phases: CPU around each and, with `db` set, PostgreSQL's counters and connection states.
 *
 * PostgreSQL (15 and later) flushes a backend's statistics when it ends a transaction at least a second
 * after its last flush, and an idle backend only after 10 s, so counters read right after a phase would
 * miss its tail and hand it to the next phase. Before each reading the meter therefore waits a second and
 * runs one `select 1` per connection of every pool in `pools` (the stack's, a baseline's, the bench's
 * own), which makes each backend flush; those touches, and the bench's own queries (`ownQueries`: the
 * read-model watch, polls, the sampler), are left out of the figures.
 */
export class Meter {
  constructor(
    private readonly infra: Infra,
    private readonly db: Db | undefined,
    private readonly ownQueries: () => number = () => 0,
    /** Pools whose connections are touched before each reading; a baseline adds its own. */
    readonly pools: Db[] = [],
  ) {}

  /** Waits a second, then touches every pooled connection so its backend flushes; answers the touches made. */
  private async flushStats(): Promise<number> {
    await sleep(1_100);
    if (!this.db) return 0;
    const sizes = this.pools.map((pool) => poolStats(pool)?.max ?? 1);
    await Promise.all(this.pools.map((pool, k) => Promise.all(Array.from({ length: sizes[k]! }, () => rawQuery(pool, 'select 1')))));
    return sizes.reduce((a, b) => a + b, 0);
  }

  async measure<T>(run: () => Promise<T>, units: (value: T) => number, profile = false): Promise<Metered<T>> {
    await this.flushStats();
    const dbBefore = this.db ? await dbCounters(this.db) : undefined;
    const ownBefore = this.ownQueries();
    const sampler = this.db ? new PgActivitySampler(this.db) : undefined;
    const cpuBefore = sampleCpu();
    sampler?.start();
    const profiler = profile ? new MainThreadProfiler() : undefined;
    await profiler?.start();
    let value: T;
    let sampled: ProfileSummary | undefined;
    try {
      value = await run();
    } finally {
      sampled = await profiler?.stop();
    }
    const connections = sampler?.stop();
    const cpuAfter = sampleCpu();
    const touches = await this.flushStats();
    const n = Math.max(1, units(value));
    const out: Metered<T> = { value, cpu: cpuSummary(cpuDelta(cpuBefore, cpuAfter), n, this.infra) };
    if (sampled) Object.assign(out, apportion(sampled, out.cpu.nodeThreadsPerUnitMs.main!));
    if (this.db && dbBefore) {
      const dbAfter = await dbCounters(this.db);
      // The touches, the bench's own queries, the sampler's and the first counter read are not the system's work.
      const own = touches + this.ownQueries() - ownBefore + (sampler?.queries ?? 0) + 1;
      out.db = {
        xactsPerUnit: round1((dbAfter.xacts - dbBefore.xacts - own) / n),
        rowsInsertedPerUnit: round1((dbAfter.inserted - dbBefore.inserted) / n),
        rowsUpdatedPerUnit: round1((dbAfter.updated - dbBefore.updated) / n),
        ...(connections ? { connections } : {}),
      };
    }
    return out;
  }
}

/**
 * Splits the main thread's measured CPU per unit (from /proc) in the proportions of the profile's samples.
 * Wall-clock sample weights are inflated when other tenants preempt the thread, so only the proportions are
 * trusted; "(program)" samples (native code and waiting) are left out of them.
 */
function apportion(sampled: ProfileSummary, mainMsPerUnit: number) {
  const entries = Object.entries(sampled.byOwner).filter(([k]) => k !== 'native (program)');
  const total = entries.reduce((s, [, v]) => s + v, 0) || 1;
  const scale = (v: number) => round1((v / total) * mainMsPerUnit);
  return {
    mainThreadMsPerUnit: Object.fromEntries(entries.map(([k, v]) => [k, scale(v)])),
    hotFunctionsMsPerUnit: Object.fromEntries(Object.entries(sampled.topFunctions).map(([k, v]) => [k, scale(v)])),
  };
}

/** Bytes of payload data (inputs, results, markers, search attributes) anywhere in a decoded history. */
function payloadBytes(value: unknown, seen = new Set<unknown>()): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (!value || typeof value !== 'object' || seen.has(value)) return 0;
  seen.add(value);
  let total = 0;
  for (const v of Object.values(value)) total += payloadBytes(v, seen);
  return total;
}

/** Temporal history events of one workflow, by kind (e.g. activityTaskScheduled: 3), and its payload bytes. */
export async function historyShape(client: Client, workflowId: string): Promise<Record<string, number>> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const counts: Record<string, number> = { total: history.events?.length ?? 0, payloadBytes: payloadBytes(history) };
  for (const event of history.events ?? []) {
    for (const [key, value] of Object.entries(event)) {
      if (value && key.endsWith('EventAttributes')) {
        const name = key.slice(0, -'EventAttributes'.length);
        counts[name] = (counts[name] ?? 0) + 1;
      }
    }
  }
  return counts;
}
