/**
 * The chaos scenario, shared by bench/chaos.ts (full size) and test/integration/chaos.test.ts (small):
 * its own PostgreSQL and Temporal (so it can stop them) and real `atelier api` and `atelier worker`
 * processes, in `npm start`'s shape or production's (chaos-stack.ts). While clients create runs and an order runs, each fault it is asked
 * for happens: the worker SIGKILLed and restarted, the gateway SIGKILLed with a burst of requests in flight
 * and restarted on its port, the Temporal server stopped cleanly and SIGKILLed (each then started again on
 * its file), PostgreSQL stopped cleanly, its postmaster SIGKILLed (each then started again on its data dir)
 * and all its processes frozen with SIGSTOP for a while. Afterwards it waits for everything to drain and
 * reads what the database recorded: runs lost, steps billed twice, runs stuck, the gateway's 5xx, the
 * order's final counts and the time to drain. How each fault is dealt is in chaos-faults.ts.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { type Db, connectDb, migrateToLatest, syncBuiltinWorkflows } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { type SupervisedAtelier, freezePostgres, prng, sleep } from './chaos-faults';
import { type ChaosTopology, startChaosStack } from './chaos-stack';

export interface ChaosOptions {
  /** `dev` (npm start's shape) or `production` (the real Temporal Server on PostgreSQL, several compiled processes); chaos-stack.ts. */
  topology: ChaosTopology;
  /** Gateways and workers of the production topology; the faults aim at the first of each. */
  gateways: number;
  workers: number;
  /** Runs of plan-research-report created by the load clients. */
  runs: number;
  /** Concurrent load clients. */
  clients: number;
  /** Children of the one order. */
  orderChildren: number;
  /** Times the worker process is SIGKILLed (each time restarted after killPauseMs). */
  workerKills: number;
  killPauseMs: number;
  /** A kill waits until the worker has been up at least this long (plus up to as long again, at random). */
  minUptimeMs: number;
  /** Times the gateway process is SIGKILLed with gatewayBurst POST /v1/runs in flight (each time restarted on its port after killPauseMs). */
  gatewayKills: number;
  gatewayBurst: number;
  /** Times the Temporal dev server is stopped cleanly and started again (down for temporalDownMs each). */
  temporalRestarts: number;
  /** Times the Temporal dev server is SIGKILLed and started again on its file (down for temporalDownMs each). */
  temporalKills: number;
  temporalDownMs: number;
  /** How long PostgreSQL is stopped cleanly, once (0 skips the outage). */
  pgOutageMs: number;
  /** Times the postmaster is SIGKILLed (then, once its backends are gone, started again on its data dir after pgKillDownMs). */
  pgKills: number;
  pgKillDownMs: number;
  /** How long every PostgreSQL process is frozen (SIGSTOP, then SIGCONT), once (0 skips it). */
  pgFreezeMs: number;
  /** The window over which the load is spread and the faults happen. */
  windowMs: number;
  /** ATELIER_LOCAL_LATENCY_MS of the worker: every local model call takes this long. */
  latencyMs: number;
  /** How long, after the last fault, everything may take to reach a terminal state. */
  drainTimeoutMs: number;
  /** Seed of the fault schedule's jitter, so a run can be repeated. */
  seed: number;
  log: (line: string) => void;
}

export const DEFAULT_CHAOS: Omit<ChaosOptions, 'log'> = {
  topology: 'dev',
  gateways: 2,
  workers: 3,
  runs: 200,
  clients: 4,
  orderChildren: 50,
  workerKills: 20,
  killPauseMs: 1_000,
  minUptimeMs: 3_000,
  gatewayKills: 2,
  gatewayBurst: 20,
  temporalRestarts: 1,
  temporalKills: 1,
  temporalDownMs: 5_000,
  pgOutageMs: 60_000,
  pgKills: 1,
  pgKillDownMs: 5_000,
  pgFreezeMs: 30_000,
  windowMs: 360_000,
  latencyMs: 300,
  drainTimeoutMs: 600_000,
  seed: 1,
};

export interface ChaosReport {
  /** What ran: Temporal's kind, the processes. */
  stack: string;
  runs: {
    /** POST /v1/runs the clients meant to make: the paced load and the bursts at the gateway kills. */
    requested: number;
    /** 201 answers to POST /v1/runs. */
    acknowledged: number;
    /** Acknowledged but absent from the database, or never terminal by the deadline. */
    lost: number;
    lostIds: string[];
    /** Every run in the database (load runs, order children) not terminal at the deadline. */
    stuck: number;
    stuckIds: Array<{ id: string; status: string }>;
    /** Final status of every load run and order child. */
    statuses: Record<string, number>;
    /**
     * Rows the load created beyond what was acknowledged: a POST whose answer was lost (the gateway killed
     * after it committed) and that the client sent again as a new run. Every load request carries an
     * Idempotency-Key, so its retry gets the run the first one created: any such row is a failure.
     */
    unacknowledgedRows: number;
  };
  billing: {
    /** Runs with a step settled twice, a recorded cost ≠ the sum of their steps, or (completed) a cost ≠ an undisturbed run of the same intake. */
    billedTwice: number;
    details: string[];
    /** Completed runs compared with an undisturbed reference run of the same intake. */
    comparedWithReference: number;
    /** Runs whose actual_usd ≠ sum of their steps' cost_actual_usd. */
    runTotalMismatch: number;
    /** (run, step) pairs with more than one step.completed / step.failed event. */
    stepsSettledTwice: number;
    /** Completed runs whose cost ≠ the reference run's cost. */
    referenceMismatch: number;
    /** Steps whose work was started more than once (run_steps.attempts > 1): a paid provider would bill the cut-off call too. */
    stepsReexecuted: number;
  };
  gateway: {
    requests: number;
    /** 503 answers (the designed answer while PostgreSQL is away); how many of them carried Retry-After. */
    status503: number;
    status503WithRetryAfter: number;
    /** Any other answer ≥ 500. */
    other5xx: number;
    other5xxDetails: string[];
    /** Requests that got no answer at all (connection refused or reset, timeout). */
    networkErrors: number;
    /**
     * Requests sent while PostgreSQL was frozen: how they were answered and the slowest answer, which the
     * gateway's query bound (ATELIER_DB_QUERY_TIMEOUT_MS, 5 s) should keep to about 5–10 s.
     */
    duringFreeze: { requests: number; status503: number; other: number; unanswered: number; slowestMs: number };
  };
  order: { id: string; status: string; counts: Record<string, number>; actualCostUsd: number | null };
  faults: {
    workerKills: number;
    workerSelfExits: number;
    workerExitsWhileRunning: number;
    gatewayKills: number;
    gatewaySelfExits: number;
    /** Burst requests that got no answer from the killed gateway (sent again afterwards). */
    gatewayBurstUnanswered: number;
    temporalRestarts: number;
    temporalKills: number;
    pgOutageMs: number;
    pgKills: number;
    pgFreezeMs: number;
    /** Times the real Temporal Server exited on its own (during a PostgreSQL fault) and was started again. */
    temporalSelfExits: number;
    /** Exits on their own of the gateways and workers no fault aimed at. */
    otherProcessSelfExits: number;
  };
  /** Undelivered engine_commands at the end. */
  pendingEngineCommands: number;
  timings: {
    loadMs: number;
    faultsMs: number;
    /** From the end of the faults until every run was terminal and the order settled (0: already so). */
    drainMs: number;
    /** From the last run acknowledged until the last run finished. */
    lastRunFinishedAfterLoadMs: number;
    totalMs: number;
  };
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

const TOPICS = [
  'tidal energy',
  'urban beekeeping',
  'the history of the semicolon',
  'soil carbon',
  'deep sea mining',
  'rail freight',
  'open source funding',
  'glacier retreat',
];

/** An HTTP client that counts every answer ≥ 500 and retries 503s (after Retry-After) and lost connections. */
class LoadClient {
  requests = 0;
  status503 = 0;
  status503WithRetryAfter = 0;
  other5xx = 0;
  other5xxDetails: string[] = [];
  networkErrors = 0;
  /** Every attempt: when it was sent, how long its answer took, its status (null: no answer). */
  attempts: Array<{ sentAt: number; ms: number; status: number | null }> = [];

  constructor(
    private readonly baseUrl: () => string,
    private readonly token: string,
  ) {}

  /** One attempt. */
  async send(
    method: string,
    p: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<{ status: number; body: any; retryAfter: number | null } | undefined> {
    this.requests += 1;
    const sentAt = Date.now();
    try {
      const res = await fetch(`${this.baseUrl()}${p}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON
      }
      const retryAfter = res.headers.get('retry-after');
      this.attempts.push({ sentAt, ms: Date.now() - sentAt, status: res.status });
      if (res.status === 503) {
        this.status503 += 1;
        if (retryAfter && /^\d+$/.test(retryAfter)) this.status503WithRetryAfter += 1;
      } else if (res.status >= 500) {
        this.other5xx += 1;
        if (this.other5xxDetails.length < 20) this.other5xxDetails.push(`${method} ${p} → ${res.status} ${text.slice(0, 200)}`);
      }
      return { status: res.status, body: parsed, retryAfter: retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null };
    } catch {
      this.networkErrors += 1;
      this.attempts.push({ sentAt, ms: Date.now() - sentAt, status: null });
      return undefined;
    }
  }

  /**
   * Sends until an answer other than 503 arrives (or the deadline). A lost connection is retried too: a POST
   * that may have committed is sent again under the same Idempotency-Key, so it creates nothing twice.
   */
  async until(method: string, p: string, body: unknown, deadline: number, idempotencyKey?: string): Promise<{ status: number; body: any }> {
    for (;;) {
      const res = await this.send(method, p, body, idempotencyKey);
      if (res && res.status !== 503) return res;
      if (Date.now() > deadline) throw new Error(`${method} ${p}: still ${res ? res.status : 'no answer'} at the deadline`);
      await sleep(res?.retryAfter != null ? Math.min(res.retryAfter, 5) * 1000 : 1_000);
    }
  }
}

/** Runs the whole scenario and returns what the database recorded; everything it started is stopped. */
export async function runChaos(options: Partial<ChaosOptions> & { log: ChaosOptions['log'] }): Promise<ChaosReport> {
  const o: ChaosOptions = { ...DEFAULT_CHAOS, ...options };
  const log = o.log;
  const random = prng(o.seed);
  const scratch = mkdtempSync(path.join(tmpdir(), 'atelier-chaos-'));
  chmodSync(scratch, 0o755); // the embedded PostgreSQL runs as its own user when we are root
  const stops: Array<() => Promise<void>> = [];
  const totalStarted = Date.now();
  let processes: SupervisedAtelier[] = [];
  try {
    // --- the stack (chaos-stack.ts): Temporal and PostgreSQL of our own, so it can stop them
    const started = Date.now();
    const stack = await startChaosStack({
      topology: o.topology,
      gateways: o.gateways,
      workers: o.workers,
      latencyMs: o.latencyMs,
      scratch,
      log,
    });
    stops.push(() => stack.stop());
    processes = [...stack.workers, ...stack.gateways];
    const db: Db = connectDb({ url: stack.databaseUrl, max: 20, onConnectionError: () => undefined });
    stops.push(() => db.destroy());
    await migrateToLatest(db);
    await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
    // The faults aim at the first worker and the first gateway; any others keep serving.
    const supervisor = stack.workers[0]!;
    const api = stack.gateways[0]!;
    const apiUrl = stack.gatewayUrls[0]!;
    // Each client keeps to one gateway, spread over all of them as a load balancer would spread connections.
    const gatewayFor = (i: number) => stack.gatewayUrls[i % stack.gatewayUrls.length]!;
    log(`stack up in ${Date.now() - started} ms: ${stack.description}; faults aim at ${supervisor.name} and ${api.name}`);

    // --- callers: one for the load, one (another workspace) for the reference runs afterwards
    const register = async (email: string) => {
      const anon = new LoadClient(() => apiUrl, '');
      const reg = await anon.until(
        'POST',
        '/v1/auth/register',
        { email, password: 'storm lantern copper meadow', name: 'Chaos' },
        Date.now() + 30_000,
      );
      if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
      const key = await new LoadClient(() => apiUrl, reg.body.accessToken).until(
        'POST',
        '/v1/api-keys',
        { name: 'chaos' },
        Date.now() + 30_000,
      );
      if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
      return key.body.secret as string;
    };
    const loadKey = await register('chaos@example.com');
    const referenceKey = await register('reference@example.com');
    const clients = Array.from({ length: o.clients }, (_, i) => new LoadClient(() => gatewayFor(i), loadKey));
    const acknowledged: string[] = [];

    // --- the load: runs spread over the window, and the order started early
    const loadStarted = Date.now();
    const loadEnd = loadStarted + o.windowMs;
    const hardDeadline = loadStarted + o.windowMs + o.pgOutageMs + o.pgFreezeMs + o.pgKills * o.pgKillDownMs + o.drainTimeoutMs;
    let orderId = '';
    const orderClient = new LoadClient(() => gatewayFor(o.clients), loadKey);
    const orderDone = (async () => {
      const items = Array.from({ length: o.orderChildren }, (_, i) => ({
        topic: `${TOPICS[i % TOPICS.length]}, part ${i}`,
        depth: ['brief', 'standard', 'deep'][i % 3],
      }));
      const planned = await orderClient.until(
        'POST',
        '/v1/orders',
        { workflowId: 'plan-research-report', variationSpec: { resolver: 'list', params: { items } } },
        hardDeadline,
        'chaos-order',
      );
      if (planned.status !== 201) throw new Error(`order: ${planned.status} ${JSON.stringify(planned.body).slice(0, 300)}`);
      orderId = planned.body.id;
      const started = await orderClient.until('POST', `/v1/orders/${orderId}/start`, undefined, hardDeadline);
      if (started.status !== 200) throw new Error(`order start: ${started.status} ${JSON.stringify(started.body).slice(0, 300)}`);
      log(`order ${orderId} of ${o.orderChildren} children started`);
    })();
    let next = 0;
    const loadDone = Promise.all(
      clients.map(async (client) => {
        for (;;) {
          const i = next++;
          if (i >= o.runs) return;
          // Pace: run i is due at its share of the load period.
          const due = loadStarted + ((loadEnd - loadStarted) * i) / o.runs;
          if (due > Date.now()) await sleep(due - Date.now());
          const res = await client.until(
            'POST',
            '/v1/runs',
            { templateId: 'plan-research-report', intake: { topic: TOPICS[i % TOPICS.length] } },
            hardDeadline,
            `chaos-run-${i}`,
          );
          if (res.status === 201) acknowledged.push(res.body.id);
          else log(`POST /v1/runs answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
          if ((i + 1) % Math.max(1, Math.round(o.runs / 10)) === 0)
            log(`${i + 1}/${o.runs} runs requested, ${acknowledged.length} acknowledged`);
        }
      }),
    ).then(() => Date.now() - loadStarted);

    // --- the faults
    const faultsStarted = Date.now();
    const at = async (fraction: number) => sleep(Math.max(0, faultsStarted + o.windowMs * fraction - Date.now()));
    let temporalRestarts = 0;
    let temporalKills = 0;
    const temporalDone = (async () => {
      // One after the other, spread over the window's first half: each needs the server the previous one started.
      const faults = [...Array<'stop'>(o.temporalRestarts).fill('stop'), ...Array<'kill'>(o.temporalKills).fill('kill')];
      for (const [f, how] of faults.entries()) {
        await at((0.5 * (f + 1)) / (faults.length + 1));
        log(how === 'stop' ? 'stopping Temporal' : 'SIGKILLing Temporal');
        await stack.bounceTemporal(how, o.temporalDownMs);
        if (how === 'stop') temporalRestarts += 1;
        else temporalKills += 1;
        log('Temporal is back');
      }
    })();
    let pgKills = 0;
    const freezeWindow = { from: 0, to: 0 };
    const pgDone = (async () => {
      // One after the other too: each acts on the server the previous one started again.
      if (o.pgOutageMs > 0) {
        await at(0.55);
        log(`stopping PostgreSQL for ${o.pgOutageMs / 1000} s`);
        await stack.stopPostgres('stop');
        await sleep(o.pgOutageMs);
        await stack.startPostgres();
        log('PostgreSQL is back');
      }
      for (let k = 0; k < o.pgKills; k++) {
        await at(0.72 + (0.1 * k) / o.pgKills);
        log('SIGKILLing the postmaster');
        await stack.stopPostgres('kill');
        await sleep(o.pgKillDownMs);
        await stack.startPostgres();
        pgKills += 1;
        log('PostgreSQL is back after its crash recovery');
      }
      if (o.pgFreezeMs > 0) {
        await at(0.84);
        freezeWindow.from = Date.now();
        const thaw = await freezePostgres(stack.pgDir);
        log(`PostgreSQL frozen (SIGSTOP) for ${o.pgFreezeMs / 1000} s`);
        try {
          await sleep(o.pgFreezeMs);
        } finally {
          thaw();
          freezeWindow.to = Date.now();
        }
        log('PostgreSQL thawed (SIGCONT)');
      }
    })();
    let burstRequested = 0;
    let burstUnanswered = 0;
    const burstClients: LoadClient[] = [];
    const gatewayDone = (async () => {
      for (let k = 0; k < o.gatewayKills; k++) {
        await at(0.1 + (0.8 * k) / o.gatewayKills);
        await api.waitUp(180_000);
        // A burst of creations, and the kill as soon as the first is answered: the others are then on their
        // way or in the gateway's hands (a fixed delay let an idle gateway answer them all first).
        let firstAnswered: () => void = () => undefined;
        const answered = new Promise<void>((resolve) => {
          firstAnswered = resolve;
        });
        const burst = Array.from({ length: o.gatewayBurst }, async (_, b) => {
          const client = new LoadClient(() => apiUrl, loadKey);
          burstClients.push(client);
          const body = { templateId: 'plan-research-report', intake: { topic: TOPICS[b % TOPICS.length] } };
          const key = `chaos-burst-${k}-${b}`;
          const first = await client.send('POST', '/v1/runs', body, key);
          if (first) firstAnswered();
          else burstUnanswered += 1;
          const res = first && first.status !== 503 ? first : await client.until('POST', '/v1/runs', body, hardDeadline, key);
          if (res.status === 201) acknowledged.push(res.body.id);
          else log(`burst POST /v1/runs answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
        });
        burstRequested += o.gatewayBurst;
        await Promise.race([answered, sleep(1_000)]);
        await api.killAndRestart(o.killPauseMs);
        log(`gateway killed (${k + 1}/${o.gatewayKills}) with a burst of ${o.gatewayBurst} in flight`);
        await Promise.all(burst);
        log(`gateway kill ${k + 1}: ${burstUnanswered} burst requests unanswered so far`);
      }
    })();
    const killsDone = (async () => {
      const interval = o.windowMs / (o.workerKills + 1);
      for (let k = 0; k < o.workerKills; k++) {
        // Jittered around an even spacing, and never before the worker has come up and worked a little
        // (it bundles its workflows at start, which takes a while on a small machine).
        await sleep(Math.max(0, faultsStarted + interval * (k + 0.5 + random()) - Date.now()));
        await supervisor.waitUp(180_000);
        await sleep(o.minUptimeMs + random() * o.minUptimeMs);
        await supervisor.killAndRestart(o.killPauseMs);
        log(`worker killed (${k + 1}/${o.workerKills})`);
      }
    })();
    const results = await Promise.allSettled([orderDone, loadDone, temporalDone, pgDone, killsDone, gatewayDone]);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failed) throw failed.reason;
    const loadMs = (results[1] as PromiseFulfilledResult<number>).value;
    const faultsMs = Date.now() - faultsStarted;
    log(`faults over after ${Math.round(faultsMs / 1000)} s (${supervisor.kills} kills, ${supervisor.selfExits} self-exits); draining`);

    // --- the drain: every run of the load workspace terminal, the order settled and every engine command done.
    // A start delivered during the outage whose completion could not be written is delivered again once its
    // lease (30 s) runs out: it finds the workflow started and is done, usually after its run has finished.
    const drainStarted = Date.now();
    const drainDeadline = drainStarted + o.drainTimeoutMs;
    const loadWorkspace = (await db.selectFrom('orders').select('workspace_id').where('id', '=', orderId).executeTakeFirstOrThrow())
      .workspace_id;
    const openRuns = async () =>
      (await db.selectFrom('runs').select(['id', 'status']).where('workspace_id', '=', loadWorkspace).execute()).filter(
        (r) => !isTerminalRunStatus(r.status) && r.status !== 'planned',
      );
    const orderStatus = async () =>
      (await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;
    const commandsLeft = async () => (await db.selectFrom('engine_commands').select('id').where('done_at', 'is', null).execute()).length;
    let lastLog = 0;
    for (;;) {
      const open = await openRuns().catch(() => undefined);
      const status = await orderStatus().catch(() => undefined);
      const commands = await commandsLeft().catch(() => undefined);
      const settled = status && ['completed', 'attention', 'failed', 'cancelled'].includes(status);
      if (open && open.length === 0 && settled && commands === 0) break;
      if (Date.now() > drainDeadline) break;
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`draining: ${open?.length ?? '?'} runs open, order ${status ?? '?'}, ${commands ?? '?'} engine commands left`);
      }
      await sleep(250);
    }
    const drainMs = Date.now() - drainStarted;
    log(`drained in ${Math.round(drainMs / 1000)} s`);

    // --- what the database recorded
    const rows = await db
      .selectFrom('runs')
      .select(['id', 'status', 'intake', 'actual_usd', 'parent_order_id', 'finished_at'])
      .where('workspace_id', '=', loadWorkspace)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ackSet = new Set(acknowledged);
    const lostIds = acknowledged.filter((id) => !byId.has(id) || !isTerminalRunStatus(byId.get(id)!.status));
    const stuckIds = rows.filter((r) => !isTerminalRunStatus(r.status)).map((r) => ({ id: r.id, status: r.status }));
    const statuses: Record<string, number> = {};
    for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const lastFinished = Math.max(...rows.map((r) => (r.finished_at ? new Date(r.finished_at).getTime() : 0)));
    const unacknowledgedRows = rows.filter((r) => !r.parent_order_id && !ackSet.has(r.id)).length;

    const details: string[] = [];
    // Costs are numeric(14, 6): compared in whole micro-dollars, exactly.
    const micros = (usd: string | number) => Math.round(Number(usd) * 1e6);
    const steps = await db
      .selectFrom('run_steps')
      .innerJoin('runs', 'runs.id', 'run_steps.run_id')
      .select(['run_steps.run_id', 'run_steps.step_index', 'run_steps.cost_actual_usd', 'run_steps.attempts'])
      .where('runs.workspace_id', '=', loadWorkspace)
      .execute();
    const stepSum = new Map<string, number>();
    for (const s of steps) stepSum.set(s.run_id, (stepSum.get(s.run_id) ?? 0) + micros(s.cost_actual_usd));
    const totalMismatch = rows.filter((r) => micros(r.actual_usd) !== (stepSum.get(r.id) ?? 0));
    for (const r of totalMismatch.slice(0, 10))
      details.push(`run ${r.id}: actual_usd ${r.actual_usd} ≠ sum of its steps ${(stepSum.get(r.id) ?? 0) / 1e6}`);
    const settlements = await db
      .selectFrom('run_events')
      .innerJoin('runs', 'runs.id', 'run_events.run_id')
      .select(['run_events.run_id', 'run_events.data'])
      .where('runs.workspace_id', '=', loadWorkspace)
      .where('run_events.type', 'in', ['step.completed', 'step.failed', 'step.skipped'])
      .execute();
    const settledCount = new Map<string, number>();
    for (const e of settlements) {
      const key = `${e.run_id} step ${(e.data as { stepIndex?: number }).stepIndex}`;
      settledCount.set(key, (settledCount.get(key) ?? 0) + 1);
    }
    const settledTwice = [...settledCount].filter(([, n]) => n > 1);
    for (const [key, n] of settledTwice.slice(0, 10)) details.push(`run ${key}: settled ${n} times`);
    const stepsReexecuted = steps.filter((s) => s.attempts > 1).length;

    // Reference: one undisturbed run (the faults are over) per distinct intake of the completed runs, in
    // another workspace. The local provider is deterministic, so the same intake must cost the same.
    const completed = rows.filter((r) => r.status === 'completed');
    const intakes = new Map<string, Record<string, unknown>>();
    for (const r of completed) intakes.set(canonical(r.intake), r.intake as Record<string, unknown>);
    const referenceClient = new LoadClient(() => apiUrl, referenceKey);
    const referenceIds: string[] = [];
    const pendingIntakes = [...intakes.values()];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let intake = pendingIntakes.shift(); intake; intake = pendingIntakes.shift()) {
          const res = await referenceClient.until('POST', '/v1/runs', { templateId: 'plan-research-report', intake }, Date.now() + 60_000);
          if (res.status !== 201) throw new Error(`reference run: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          referenceIds.push(res.body.id);
        }
      }),
    );
    const referenceDeadline = Date.now() + 120_000;
    let references: Array<{ id: string; status: string; intake: unknown; actual_usd: string }> = [];
    while (referenceIds.length) {
      references = await db.selectFrom('runs').select(['id', 'status', 'intake', 'actual_usd']).where('id', 'in', referenceIds).execute();
      if (references.every((r) => isTerminalRunStatus(r.status)) || Date.now() > referenceDeadline) break;
      await sleep(250);
    }
    const referenceCost = new Map(
      references.filter((r) => r.status === 'completed').map((r) => [canonical(r.intake), Number(r.actual_usd)]),
    );
    let compared = 0;
    let referenceMismatch = 0;
    const mismatchedIds: string[] = [];
    for (const r of completed) {
      const expected = referenceCost.get(canonical(r.intake));
      if (expected === undefined) {
        details.push(`run ${r.id}: no completed reference run for its intake`);
        continue;
      }
      compared += 1;
      if (micros(r.actual_usd) !== micros(expected)) {
        referenceMismatch += 1;
        mismatchedIds.push(r.id);
        if (referenceMismatch <= 10)
          details.push(`run ${r.id}: cost ${r.actual_usd} ≠ undisturbed ${expected} for intake ${canonical(r.intake)}`);
      }
    }
    const billedTwice = new Set([...totalMismatch.map((r) => r.id), ...settledTwice.map(([key]) => key.split(' ')[0]), ...mismatchedIds])
      .size;

    const orderClientFinal = new LoadClient(() => apiUrl, loadKey);
    const orderView = await orderClientFinal.until('GET', `/v1/orders/${orderId}`, undefined, Date.now() + 30_000);
    const pending = await db.selectFrom('engine_commands').select('id').where('done_at', 'is', null).execute();
    const all = [...clients, ...burstClients, orderClient, orderClientFinal];
    const sum = (f: (c: LoadClient) => number) => all.reduce((n, c) => n + f(c), 0);
    const frozen = all.flatMap((c) => c.attempts).filter((a) => a.sentAt >= freezeWindow.from && a.sentAt < freezeWindow.to);

    return {
      stack: stack.description,
      runs: {
        requested: o.runs + burstRequested,
        acknowledged: acknowledged.length,
        lost: lostIds.length,
        lostIds,
        stuck: stuckIds.length,
        stuckIds: stuckIds.slice(0, 20),
        statuses,
        unacknowledgedRows,
      },
      billing: {
        billedTwice,
        details,
        comparedWithReference: compared,
        runTotalMismatch: totalMismatch.length,
        stepsSettledTwice: settledTwice.length,
        referenceMismatch,
        stepsReexecuted,
      },
      gateway: {
        requests: sum((c) => c.requests),
        status503: sum((c) => c.status503),
        status503WithRetryAfter: sum((c) => c.status503WithRetryAfter),
        other5xx: sum((c) => c.other5xx),
        other5xxDetails: all.flatMap((c) => c.other5xxDetails).slice(0, 20),
        networkErrors: sum((c) => c.networkErrors),
        duringFreeze: {
          requests: frozen.length,
          status503: frozen.filter((a) => a.status === 503).length,
          other: frozen.filter((a) => a.status !== null && a.status !== 503).length,
          unanswered: frozen.filter((a) => a.status === null).length,
          slowestMs: Math.max(0, ...frozen.map((a) => a.ms)),
        },
      },
      order: {
        id: orderId,
        status: orderView.body?.status,
        counts: orderView.body?.counts ?? {},
        actualCostUsd: orderView.body?.actualCostUsd ?? null,
      },
      faults: {
        workerKills: supervisor.kills,
        workerSelfExits: supervisor.selfExits,
        workerExitsWhileRunning: supervisor.exitsWhileRunning,
        gatewayKills: api.kills,
        gatewaySelfExits: api.selfExits,
        gatewayBurstUnanswered: burstUnanswered,
        temporalRestarts,
        temporalKills,
        pgOutageMs: o.pgOutageMs,
        pgKills,
        pgFreezeMs: o.pgFreezeMs,
        temporalSelfExits: stack.temporalSelfExits(),
        otherProcessSelfExits: processes.filter((p) => p !== supervisor && p !== api).reduce((n, p) => n + p.selfExits, 0),
      },
      pendingEngineCommands: pending.length,
      timings: {
        loadMs,
        faultsMs,
        drainMs,
        lastRunFinishedAfterLoadMs: lastFinished - loadStarted - loadMs,
        totalMs: Date.now() - totalStarted,
      },
    };
  } catch (err) {
    for (const p of processes) log(`${p.name} log tail:\n${p.tail()}`);
    throw err;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Chaos options from CHAOS_* environment variables over the defaults. */
export function chaosOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Omit<ChaosOptions, 'log'> {
  const num = (name: string, fallback: number) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got "${v}")`);
    return n;
  };
  const d = DEFAULT_CHAOS;
  const topology = env.CHAOS_TOPOLOGY || d.topology;
  if (topology !== 'dev' && topology !== 'production') throw new Error(`CHAOS_TOPOLOGY must be dev or production (got "${topology}")`);
  return {
    topology,
    gateways: Math.max(1, num('CHAOS_GATEWAYS', d.gateways)),
    workers: Math.max(1, num('CHAOS_WORKERS', d.workers)),
    runs: num('CHAOS_RUNS', d.runs),
    clients: Math.max(1, num('CHAOS_CLIENTS', d.clients)),
    orderChildren: Math.max(1, num('CHAOS_ORDER_CHILDREN', d.orderChildren)),
    workerKills: num('CHAOS_WORKER_KILLS', d.workerKills),
    killPauseMs: num('CHAOS_KILL_PAUSE_MS', d.killPauseMs),
    minUptimeMs: num('CHAOS_MIN_UPTIME_MS', d.minUptimeMs),
    gatewayKills: num('CHAOS_GATEWAY_KILLS', d.gatewayKills),
    gatewayBurst: num('CHAOS_GATEWAY_BURST', d.gatewayBurst),
    temporalRestarts: num('CHAOS_TEMPORAL_RESTARTS', d.temporalRestarts),
    temporalKills: num('CHAOS_TEMPORAL_KILLS', d.temporalKills),
    temporalDownMs: num('CHAOS_TEMPORAL_DOWN_MS', d.temporalDownMs),
    pgOutageMs: num('CHAOS_PG_OUTAGE_MS', d.pgOutageMs),
    pgKills: num('CHAOS_PG_KILLS', d.pgKills),
    pgKillDownMs: num('CHAOS_PG_KILL_DOWN_MS', d.pgKillDownMs),
    pgFreezeMs: num('CHAOS_PG_FREEZE_MS', d.pgFreezeMs),
    windowMs: num('CHAOS_WINDOW_MS', d.windowMs),
    latencyMs: num('CHAOS_LATENCY_MS', d.latencyMs),
    drainTimeoutMs: num('CHAOS_DRAIN_TIMEOUT_MS', d.drainTimeoutMs),
    seed: num('CHAOS_SEED', d.seed),
  };
}
