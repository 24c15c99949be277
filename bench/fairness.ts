/**
 * Fair shares and orders at capacity, on the real stack (startAtelier) with model calls that take
 * BENCH_FAIR_LATENCY_MS (2,000 ms) each:
 *
 * - fairness: a run of workspace B, timed from POST /v1/runs to `completed` in the read model, on an idle
 *   stack (the quicker of two) and again while workspace A has BENCH_FAIR_BACKLOG (2,000) runs of its own
 *   handed to Temporal and waiting. Target: busy ≤ 1.5 × idle.
 * - order at capacity (skipped when BENCH_FAIR_ORDER is 0): an order of BENCH_FAIR_ORDER (2,000) plan-research-report children with
 *   maxConcurrency BENCH_FAIR_CONCURRENCY (64), timed from its start until every child is terminal and the
 *   order settled, against bareOrderWorkflow at the same concurrency whose children's first two activities
 *   sleep as long as a model call (plan-research-report: two model calls and a code step). Target: children/s
 *   atelier ÷ bare ≥ 0.8.
 *
 *   npm run bench -- fairness
 */
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import type { Client } from '@temporalio/client';
import type { connectDb } from '@atelier/db';
import {
  type Cleanup,
  NAMESPACE,
  TERMINAL,
  benchLog,
  createApiKey,
  http,
  intEnv,
  loadAvg,
  postRun,
  rawQuery,
  runMain,
  temporalStoreEnv,
} from './harness';
import { startBothSides } from './both-sides';
import { runBounded, round1, round3, sleep } from './stats';
import { RUNS_TEMPLATE } from './target-runs';

const settings = {
  latencyMs: intEnv('BENCH_FAIR_LATENCY_MS', 2_000),
  backlog: intEnv('BENCH_FAIR_BACKLOG', 2_000),
  orderChildren: intEnv('BENCH_FAIR_ORDER', 2_000),
  concurrency: intEnv('BENCH_FAIR_CONCURRENCY', 64, 1),
  timeoutMs: intEnv('BENCH_FAIR_TIMEOUT_MS', 1_800_000, 1),
};
const FAIRNESS_TARGET = 1.5;
const ORDERS_TARGET = 0.8;
const BARE_QUEUE = 'bench-fair-bare';
const BARE_WORKFLOWS_PATH = fileURLToPath(new URL('./bare-workflows.ts', import.meta.url));
const { log, seconds } = benchLog('fairness');

type Db = ReturnType<typeof connectDb>;

/** Polls the read model until the run settles; answers its time from creation to settlement by the database's clock. */
async function settledMs(db: Db, runId: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await rawQuery<{ status: string; ms: string | null }>(
      db,
      'select status, extract(epoch from finished_at - created_at) * 1000 as ms from runs where id = $1',
      [runId],
    );
    if (row?.ms != null) {
      if (row.status !== 'completed') throw new Error(`run ${runId} ended ${row.status}`);
      return Math.round(Number(row.ms));
    }
    if (Date.now() > deadline) throw new Error(`run ${runId} not settled after ${timeoutMs} ms`);
    await sleep(50);
  }
}

async function main(cleanup: Cleanup): Promise<Record<string, unknown>> {
  log(`settings ${JSON.stringify(settings)}; ${os.cpus().length} CPUs, load ${loadAvg().join(' ')}`);
  const sleepStep = async (input: { i: number }) => {
    await sleep(settings.latencyMs);
    return input.i;
  };
  const {
    atelier,
    client,
    benchDb: db,
  } = await startBothSides(cleanup, log, {
    temporalStore: temporalStoreEnv(),
    atelier: {
      namespace: NAMESPACE,
      taskQueue: 'bench-fair-atelier',
      localLatencyMs: settings.latencyMs,
      orderConcurrency: settings.concurrency,
    },
    bare: {
      workflowsPath: BARE_WORKFLOWS_PATH,
      taskQueue: BARE_QUEUE,
      activities: { stepOne: sleepStep, stepTwo: sleepStep, stepThree: async (input: { i: number }) => input.i },
    },
  });
  const keyA = await createApiKey(atelier.url);
  const keyB = await createApiKey(atelier.url);
  let wsA = '';
  const unsettledA = async () =>
    Number(
      (
        await rawQuery<{ n: string }>(db, 'select count(*) as n from runs where workspace_id = $1 and not (status = any($2::text[]))', [
          wsA,
          [...TERMINAL],
        ])
      )[0]?.n ?? 0,
    );

  // ---------------------------------------------------------------------------------------- fairness
  const runB = async (topic: string) => settledMs(db, await postRun(atelier.url, keyB, RUNS_TEMPLATE, { topic }), settings.timeoutMs);
  const idleRuns = [await runB('idle 1'), await runB('idle 2')];
  const idleMs = Math.min(...idleRuns);
  log(`B's run on an idle stack: ${idleRuns.join(', ')} ms`);

  log(`A: creating ${settings.backlog} runs`);
  const created = await runBounded(settings.backlog, 32, (i) => postRun(atelier.url, keyA, RUNS_TEMPLATE, { topic: `backlog ${i}` }));
  const failed = created.results.find((r) => !r.ok);
  if (failed) throw new Error(`creating A's backlog failed: ${String((failed as { error: unknown }).error)}`);
  const first = created.results[0] as { ok: true; value: string };
  wsA = (await rawQuery<{ workspace_id: string }>(db, 'select workspace_id from runs where id = $1', [first.value]))[0]!.workspace_id;
  for (;;) {
    const [row] = await rawQuery<{ n: string }>(db, "select count(*) as n from runs where workspace_id = $1 and status = 'pending'", [wsA]);
    if (Number(row?.n ?? 0) === 0) break;
    await sleep(200);
  }
  const waitingBefore = await unsettledA();
  log(`A: ${waitingBefore} runs waiting in Temporal; B starts a run`);
  const busyMs = await runB('busy');
  const waitingAfter = await unsettledA();
  const fairness = {
    idleMs,
    idleRuns,
    busyMs,
    backlogBefore: waitingBefore,
    backlogAfter: waitingAfter,
    ratio: round3(busyMs / idleMs),
    target: FAIRNESS_TARGET,
    met: busyMs <= FAIRNESS_TARGET * idleMs,
  };
  log(`fairness: B idle ${idleMs} ms, behind A's ${waitingBefore} waiting runs ${busyMs} ms (${fairness.ratio}×)`);
  log('waiting for A to drain');
  while ((await unsettledA()) > 0) await sleep(1_000);

  const orders = settings.orderChildren > 0 ? await orderAtCapacity(settings.orderChildren, atelier.url, keyB, db, client) : undefined;
  log(
    `summary: fairness ${busyMs} ms vs idle ${idleMs} ms = ${fairness.ratio}× (target ≤ ${FAIRNESS_TARGET}); orders ${orders?.ratio ?? 'skipped'}`,
  );
  return { settings, seconds: round1(seconds()), fairness, orders };
}

/**
 * An order of `n` children at BENCH_FAIR_CONCURRENCY in flight, workspace B's, against bareOrderWorkflow at the
 * same concurrency: children/s of each, timed from the order's start until it settles.
 */
async function orderAtCapacity(n: number, atelierUrl: string, keyB: string, db: Db, client: Client) {
  const items = Array.from({ length: n }, (_, i) => ({ topic: `child ${i}` }));
  const planned = await http(
    atelierUrl,
    'POST',
    '/v1/orders',
    { workflowId: RUNS_TEMPLATE, variationSpec: { resolver: 'list', params: { items } }, maxConcurrency: settings.concurrency },
    keyB,
  );
  if (planned.status !== 201) throw new Error(`POST /v1/orders: ${planned.status} ${JSON.stringify(planned.body).slice(0, 300)}`);
  const orderId = planned.body.id as string;
  log(`atelier order: ${n} children, ${settings.concurrency} in flight`);
  const t0 = performance.now();
  const started = await http(atelierUrl, 'POST', `/v1/orders/${orderId}/start`, {}, keyB);
  if (started.status !== 200) throw new Error(`start: ${started.status}`);
  for (;;) {
    const [order] = await rawQuery<{ status: string }>(db, 'select status from orders where id = $1', [orderId]);
    if (order && !['planned', 'running'].includes(order.status)) break;
    if (performance.now() - t0 > settings.timeoutMs) throw new Error(`order ${orderId} not settled in time`);
    await sleep(200);
  }
  const atelierSeconds = (performance.now() - t0) / 1000;
  const order = (await http(atelierUrl, 'GET', `/v1/orders/${orderId}`, undefined, keyB)).body;
  const lastExecution = await client.workflow.getHandle(orderId).describe();
  log(`bare order: ${n} children, ${settings.concurrency} in flight`);
  const b0 = performance.now();
  const bareWorkflowId = `bench-fair-order-${Date.now()}`;
  await client.workflow.execute('bareOrderWorkflow', {
    taskQueue: BARE_QUEUE,
    workflowId: bareWorkflowId,
    args: [{ children: n, concurrency: settings.concurrency }],
  });
  const bareSeconds = (performance.now() - b0) / 1000;
  const bareHistory = (await client.workflow.getHandle(bareWorkflowId).describe()).historyLength;
  const orders = {
    children: n,
    concurrency: settings.concurrency,
    atelier: {
      seconds: round1(atelierSeconds),
      childrenPerSec: round1(n / atelierSeconds),
      status: order.status,
      counts: order.counts,
      lastExecutionHistoryLength: lastExecution.historyLength,
      lastExecutionPriority: lastExecution.raw.workflowExecutionInfo?.priority,
    },
    bare: { seconds: round1(bareSeconds), childrenPerSec: round1(n / bareSeconds), historyLength: bareHistory },
    ratio: round3(bareSeconds / atelierSeconds),
    target: ORDERS_TARGET,
    met: bareSeconds / atelierSeconds >= ORDERS_TARGET,
  };
  log(
    `orders: atelier ${orders.atelier.childrenPerSec} children/s (${orders.atelier.seconds} s, ${order.status}), ` +
      `bare ${orders.bare.childrenPerSec} children/s (${orders.bare.seconds} s): ${orders.ratio} (target ≥ ${ORDERS_TARGET})`,
  );
  return orders;
}

void runMain({ log, seconds }, (cleanup) => main(cleanup));
