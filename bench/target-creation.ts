/**
 * Target 2, run creation: POST /v1/runs latency with K concurrent clients, p50 and p99, against a bare
 * gateway that does one PostgreSQL insert and one `workflow.start` per request, at the same concurrency.
 *
 * - atelier: the real gateway (authentication, validation, budgets, the run and its engine command in one
 *   transaction; its dispatcher starts the workflow after the answer);
 * - bare: a node:http server in this process that parses the same JSON body, inserts one row into
 *   `bench_bare_runs` (created `LIKE runs INCLUDING ALL`: the same columns, defaults, checks and indexes,
 *   without foreign keys or triggers), filled from a real run's row (the frozen definition included, so the
 *   row has the same size) with a new id and the request's intake, as one autocommit statement (one
 *   transaction), then starts a bareWorkflow (three no-op activities) and answers 201. It has its own pool
 *   (the stack's size, 10) and its own Temporal connection, as the gateway has.
 * Both are called over HTTP by the same client code, and on both sides the workers execute what the
 * requests start while the burst goes on. Each phase is followed by a drain (every started run or workflow
 * finished) so the next one starts quiet. Rounds alternate ABBA; latencies are pooled over rounds per side.
 * Ratio = atelier ÷ bare latency, for p50 and for p99 (target ≤ 1.5 for both).
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, createServer } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { connectionLimits } from '@atelier/api';
import { httpServerOptions } from '@atelier/api/http/connection-limits';
import { type Db, connectDb } from '@atelier/db';
import { type Cleanup, type Sides, abba, describe, http, rawQuery } from './harness';
import { RUNS_TEMPLATE } from './target-runs';
import { type LatencySummary, round1, round3, runBounded, summarize } from './stats';

export const CREATION_TARGET = 1.5;
const BARE_TABLE = 'bench_bare_runs';

export interface CreationSettings {
  requests: number;
  clients: number;
  rounds: number;
  /** Profile one extra Atelier burst (diagnostic, not counted). */
  profile: boolean;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

/**
 * The bare gateway: one insert and one workflow.start per POST, of `workflow` (the three no-op activities
 * of `bareWorkflow` unless a bench names another) on `taskQueue` (the bench's baseline queue by default).
 */
export async function startBareGateway(
  s: Sides,
  cleanup: Cleanup,
  workflow: { type: string; args: unknown[]; taskQueue?: string } = { type: 'bareWorkflow', args: [{ i: 0 }] },
): Promise<string> {
  const db: Db = connectDb({ url: s.infra.databaseUrl, max: 10 });
  cleanup.add('the run-creation baseline’s pool', () => db.destroy());
  s.meter.pools.push(db);
  const connection = await Connection.connect({ address: s.infra.temporalAddress });
  cleanup.add('the run-creation baseline’s Temporal connection', () => connection.close());
  const client = new Client({ connection, namespace: s.client.options.namespace });

  await rawQuery(db, `CREATE TABLE IF NOT EXISTS ${BARE_TABLE} (LIKE runs INCLUDING ALL)`);
  const [template] = await rawQuery<{ row: Record<string, unknown> }>(
    db,
    `select to_jsonb(r) as row from runs r where template_id = $1 and parent_order_id is null order by created_at desc limit 1`,
    [RUNS_TEMPLATE],
  );
  if (!template) throw new Error(`no ${RUNS_TEMPLATE} run to copy a row from`);
  // As the row looks when a run is created: pending, nothing started, spent or settled.
  const fresh = {
    ...template.row,
    status: 'pending',
    current_step_index: 0,
    artifact_id: null,
    actual_usd: 0,
    cost_status: 'estimated',
    worker_id: null,
    started_at: null,
    finished_at: null,
  };
  const insert = `insert into ${BARE_TABLE} select * from jsonb_populate_record(null::${BARE_TABLE}, $1::jsonb)`;

  // The gateway's HTTP settings (idle, header and request timeouts), so both sides keep connections alike.
  const server = createServer(httpServerOptions(connectionLimits()), (req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    readBody(req)
      .then(async (text) => {
        const body = JSON.parse(text) as { intake: Record<string, unknown> };
        const id = `run-${randomBytes(4).toString('hex')}`;
        const now = new Date().toISOString();
        await rawQuery(db, insert, [
          JSON.stringify({ ...fresh, id, intake: body.intake, created_at: now, updated_at: now, queued_at: now }),
        ]);
        await client.workflow.start(workflow.type, {
          taskQueue: workflow.taskQueue ?? s.bareQueue,
          workflowId: `bench-create-${id}`,
          args: workflow.args,
        });
        answer(201, { id, workflowId: `bench-create-${id}` });
      })
      .catch((err) => answer(500, { error: describe(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add('the run-creation baseline gateway', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the baseline gateway has no port');
  return `http://127.0.0.1:${address.port}`;
}

interface Side {
  name: 'bare' | 'atelier';
  /** One request; answers the id to wait for. */
  post: (topic: string) => Promise<string>;
  /** Waits until what the requests started has finished. */
  drain: (ids: string[]) => Promise<unknown>;
}

interface Burst {
  latencies: number[];
  wallMs: number;
  failed: number;
  firstError?: string;
}

/** n requests from `clients` concurrent clients, metered; then the drain (not timed). */
async function burst(s: Sides, side: Side, label: string, n: number, clients: number, profile = false) {
  const ids: string[] = [];
  const m = await s.meter.measure(
    async (): Promise<Burst> => {
      const { wallMs, results } = await runBounded(
        n,
        clients,
        async (i) => {
          const t0 = performance.now();
          ids.push(await side.post(`bench ${label} ${i}`));
          return performance.now() - t0;
        },
        s.aborted,
      );
      const failures = results.filter((r) => r && !r.ok) as Array<{ error: unknown }>;
      return {
        latencies: results.filter((r) => r?.ok).map((r) => (r as { value: number }).value),
        wallMs,
        failed: failures.length,
        ...(failures[0] ? { firstError: describe(failures[0].error) } : {}),
      };
    },
    (b) => b.latencies.length,
    profile,
  );
  const drainStarted = performance.now();
  await side.drain(ids);
  const l = summarize(m.value.latencies);
  s.log(
    `creation ${label} ${side.name}: ${m.value.latencies.length}/${n} with ${clients} clients in ${(m.value.wallMs / 1000).toFixed(2)} s; ` +
      `p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms; CPU/request ${JSON.stringify(m.cpu.perUnitMs)}; machine busy ${m.cpu.machineBusy}; ` +
      `drained in ${((performance.now() - drainStarted) / 1000).toFixed(1)} s` +
      (m.value.failed ? `; ${m.value.failed} failed (${m.value.firstError})` : ''),
  );
  return m;
}

/** The run-creation target: ABBA rounds of a burst on each side, after a warm-up and a one-client figure. */
export async function measureCreation(s: Sides, cleanup: Cleanup, settings: CreationSettings) {
  const bareUrl = await startBareGateway(s, cleanup);
  const sides: Record<'bare' | 'atelier', Side> = {
    bare: {
      name: 'bare',
      post: async (topic) => {
        const res = await http(bareUrl, 'POST', '/runs', { templateId: RUNS_TEMPLATE, intake: { topic } });
        if (res.status !== 201) throw new Error(`bare POST: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        return res.body.workflowId as string;
      },
      drain: (ids) => runBounded(ids.length, 32, (i) => s.client.workflow.getHandle(ids[i]!).result(), s.aborted),
    },
    atelier: {
      name: 'atelier',
      post: async (topic) => {
        const res = await http(s.atelierUrl, 'POST', '/v1/runs', { templateId: RUNS_TEMPLATE, intake: { topic } }, s.apiKey);
        if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        return res.body.id as string;
      },
      drain: (ids) => Promise.allSettled(ids.map((id) => s.watcher.wait(id, s.runTimeoutMs))),
    },
  };

  // Warm-up (the bare gateway is new), then one client alone, one request at a time: nothing queues.
  const alone: Record<string, LatencySummary> = {};
  for (const side of [sides.bare, sides.atelier]) {
    await burst(s, side, 'warm-up', Math.min(settings.clients, settings.requests), settings.clients);
    const ids: string[] = [];
    const ms: number[] = [];
    for (let i = 0; i < 20 && !s.aborted(); i++) {
      const t0 = performance.now();
      ids.push(await side.post(`bench alone ${i}`));
      ms.push(performance.now() - t0);
    }
    await side.drain(ids);
    alone[side.name] = summarize(ms);
  }

  const pooled: Record<'bare' | 'atelier', number[]> = { bare: [], atelier: [] };
  const perRound: Array<Record<string, unknown>> = [];
  const cpu: Record<string, unknown> = {};
  let failed = 0;
  for (let r = 1; r <= settings.rounds && !s.aborted(); r++) {
    const round: Record<string, unknown> = { round: r };
    for (const side of abba(r, sides.bare, sides.atelier)) {
      const m = await burst(s, side, `round ${r}`, settings.requests, settings.clients);
      pooled[side.name].push(...m.value.latencies);
      failed += m.value.failed;
      const l = summarize(m.value.latencies);
      round[side.name] = { p50Ms: l.p50Ms, p99Ms: l.p99Ms, requestsPerSec: round1(m.value.latencies.length / (m.value.wallMs / 1000)) };
      cpu[side.name] ??= { cpuMsPerRequest: m.cpu.perUnitMs, machineBusy: m.cpu.machineBusy, ...(m.db ? { db: m.db } : {}) };
    }
    perRound.push(round);
  }
  if (s.aborted()) throw new Error('interrupted');

  let profile: Record<string, unknown> | undefined;
  if (settings.profile) {
    const m = await burst(s, sides.atelier, 'diagnostic (profiled)', settings.requests, settings.clients, true);
    profile = { mainThreadMsPerRequest: m.mainThreadMsPerUnit, hotFunctionsMsPerRequest: m.hotFunctionsMsPerUnit };
    s.log(`creation: atelier main-thread ms per request while the burst runs: ${JSON.stringify(m.mainThreadMsPerUnit)}`);
  }

  const bare = summarize(pooled.bare);
  const atelier = summarize(pooled.atelier);
  const p50 = round3(atelier.p50Ms / bare.p50Ms);
  const p99 = round3(atelier.p99Ms / bare.p99Ms);
  return {
    summary: {
      measure: `POST latency with ${settings.clients} concurrent clients, ms (${pooled.atelier.length} and ${pooled.bare.length} requests pooled over rounds)`,
      ratioIs: 'atelier / bare (lower is better)',
      p50: { ratio: p50, atelier: atelier.p50Ms, bare: bare.p50Ms },
      p99: { ratio: p99, atelier: atelier.p99Ms, bare: bare.p99Ms },
      target: `<= ${CREATION_TARGET} for p50 and for p99`,
      pass: p50 <= CREATION_TARGET && p99 <= CREATION_TARGET && failed === 0,
    },
    detail: {
      requests: settings.requests,
      clients: settings.clients,
      rounds: settings.rounds,
      failed,
      bare,
      atelier,
      /** One client, one request at a time (20 requests). */
      alone: {
        bare: { p50Ms: alone.bare?.p50Ms, p90Ms: alone.bare?.p90Ms },
        atelier: { p50Ms: alone.atelier?.p50Ms, p90Ms: alone.atelier?.p90Ms },
      },
      perRound,
      /** First round's burst: CPU per request (includes the execution of what was started meanwhile) and DB work. */
      cpu,
      ...(profile ? { atelierProfile: profile } : {}),
    },
  };
}
