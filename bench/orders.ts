/**
 * The 10,000-child order benchmark (issue: orders at scale). One process, on one real Temporal dev
 * server and one embedded PostgreSQL: plans an order of BENCH_ORDER_SIZE variations through the real
 * gateway, starts it, and runs it to completion on the local provider. It prints one JSON line: plan
 * time, completion throughput, the order workflow's history (bounded by continue-as-new) and the
 * worker process's memory sampled through the run. Progress goes to stderr.
 *
 *   npm run bench -- orders          (BENCH_ORDER_SIZE, BENCH_ORDER_CONCURRENCY to change it)
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import pino from 'pino';
import { RunEventHub, startApiServer } from '@atelier/api';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { freePort } from '@atelier/cli/stack/processes';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { startTemporalDevServer } from '@atelier/cli/stack/temporal-server';
import { connectDb, migrateToLatest, orderCounts, startEmbeddedPostgres, syncBuiltinWorkflows } from '@atelier/db';
import { LOCAL_MODELS, ModelRegistry } from '@atelier/domain';
import { createRunWorker } from '@atelier/engine/worker';
import { LocalStorage } from '@atelier/storage';

const SIZE = Number(process.env.BENCH_ORDER_SIZE ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_ORDER_CONCURRENCY ?? 48);
const log = (msg: string) => process.stderr.write(`[orders-bench] ${msg}\n`);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main() {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const scratch = mkdtempSync(path.join(tmpdir(), 'atelier-orders-bench-'));
  chmodSync(scratch, 0o755); // the embedded PostgreSQL runs as its own user when we are root
  const stops: Array<() => Promise<void>> = [];
  try {
    const temporal = await startTemporalDevServer({
      cliPath: await ensureTemporalCli(log),
      dbFile: path.join(scratch, 'temporal.db'),
      port: await freePort(),
      uiPort: await freePort(),
      headless: true,
      log: () => undefined,
    });
    stops.push(() => temporal.stop());
    const pg = await startEmbeddedPostgres({ dataDir: path.join(scratch, 'pg'), port: await freePort(), ephemeral: true });
    stops.push(() => pg.stop());
    const db = connectDb({ url: pg.url, max: 30 });
    stops.push(() => db.destroy());
    await migrateToLatest(db);
    await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
    const logger = pino({ level: 'silent' });
    const models = new ModelRegistry(LOCAL_MODELS);
    const storage = new LocalStorage(path.join(scratch, 'storage'));

    const native = await NativeConnection.connect({ address: temporal.address });
    const worker = await createRunWorker({
      connection: native,
      namespace: 'default',
      taskQueue: 'bench-orders',
      db,
      logger,
      models,
      storage,
      maxConcurrentActivities: 100,
    });
    const running = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await running;
      await native.close();
    });
    const connection = await Connection.connect({ address: temporal.address });
    stops.push(() => connection.close());
    const client = new Client({ connection });
    const events = new RunEventHub(pg.url, logger);
    stops.push(() => events.close());
    const api = await startApiServer(
      { db, temporal: client, taskQueue: 'bench-orders', logger, models, storage, events, orderConcurrency: CONCURRENCY },
      0,
      '127.0.0.1',
    );
    stops.push(() => api.close());

    const post = async (p: string, body: unknown, token?: string) => {
      const res = await fetch(`${api.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const token = (await post('/v1/auth/register', { email: 'bench@example.com', password: 'violet harbor granite echo', name: 'Bench' }))
      .body.accessToken;
    const side = Math.ceil(Math.sqrt(SIZE));
    const axes = {
      topic: Array.from({ length: side }, (_, i) => `topic ${i}`),
      depth: ['brief', 'standard', 'deep'].slice(0, Math.min(3, Math.ceil(SIZE / side))),
    };
    const items = Array.from({ length: SIZE }, (_, i) => ({ topic: `variation ${i}`, depth: axes.depth[i % axes.depth.length] }));

    log(`planning ${SIZE} children`);
    const planStarted = performance.now();
    const planned = await post(
      '/v1/orders',
      { workflowId: 'plan-research-report', variationSpec: { resolver: 'list', params: { items } } },
      token,
    );
    const planMs = performance.now() - planStarted;
    if (planned.status !== 201) throw new Error(`planning failed: ${planned.status} ${JSON.stringify(planned.body).slice(0, 300)}`);
    const orderId = planned.body.id as string;
    log(`planned in ${Math.round(planMs)} ms; starting with concurrency ${CONCURRENCY}`);
    if (process.env.BENCH_PLAN_ONLY === '1') {
      console.log(JSON.stringify({ bench: 'orders-plan', children: SIZE, planMs: Math.round(planMs), planTargetMs: 5000 }));
      return;
    }

    const memory: Array<{ done: number; rssMb: number; heapMb: number }> = [];
    const runStarted = performance.now();
    if ((await post(`/v1/orders/${orderId}/start`, {}, token)).status !== 200) throw new Error('start failed');
    let counts = await orderCounts(db, orderId);
    let lastLog = 0;
    while (counts.succeeded + counts.failed + counts.cancelled < SIZE) {
      await new Promise((r) => setTimeout(r, 1000));
      counts = await orderCounts(db, orderId);
      const m = process.memoryUsage();
      memory.push({ done: counts.succeeded + counts.failed, rssMb: mb(m.rss), heapMb: mb(m.heapUsed) });
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        log(`${counts.succeeded + counts.failed}/${SIZE} settled, rss ${mb(m.rss)} MB`);
      }
    }
    const runSeconds = (performance.now() - runStarted) / 1000;
    const handle = client.workflow.getHandle(orderId);
    await handle.result();
    const described = await handle.describe();
    let executions = 0;
    for await (const _ of client.workflow.list({ query: `WorkflowId = "${orderId}"` })) executions += 1;
    const order = (await (await fetch(`${api.url}/v1/orders/${orderId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    const at = (fraction: number) => memory[Math.min(memory.length - 1, Math.floor(memory.length * fraction))];
    console.log(
      JSON.stringify({
        bench: 'orders',
        children: SIZE,
        concurrency: CONCURRENCY,
        planMs: Math.round(planMs),
        planTargetMs: 5000,
        runSeconds: Math.round(runSeconds),
        childrenPerSecond: Math.round((SIZE / runSeconds) * 10) / 10,
        status: order.status,
        counts: order.counts,
        actualCostUsd: order.actualCostUsd,
        orderWorkflow: { executions, lastExecutionHistoryLength: described.historyLength },
        workerMemoryMb: { at10pct: at(0.1), at50pct: at(0.5), at90pct: at(0.9), max: Math.max(...memory.map((m) => m.rssMb)) },
      }),
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
