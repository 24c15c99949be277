/**
 * Engine benchmarks, one process, one Temporal dev server, one embedded PostgreSQL:
 *  1. per-step overhead: a 10-step `code` workflow through the gateway vs a bare workflow of 10 no-op
 *     activities, same concurrency;
 *  2. SSE transition-to-client latency: every event of streamed runs, client receipt minus the time the
 *     event row was written (target p99 ≤ 100 ms), and events received vs recorded.
 * Prints one JSON line; progress goes to stderr.   node --import tsx bench/engine.ts
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import pino from 'pino';
import { RunEventHub, startApiServer } from '@atelier/api';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { freePort } from '@atelier/cli/stack/processes';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { startTemporalDevServer } from '@atelier/cli/stack/temporal-server';
import { connectDb, migrateToLatest, startEmbeddedPostgres, syncBuiltinWorkflows } from '@atelier/db';
import { LOCAL_MODELS, ModelRegistry } from '@atelier/domain';
import { createRunWorker } from '@atelier/engine/worker';
import { LocalStorage } from '@atelier/storage';
import { runBounded, summarize } from './stats';

const RUNS = Number(process.env.BENCH_STEP_RUNS ?? 100);
const CONCURRENCY = 8;
const log = (m: string) => process.stderr.write(`[engine-bench] ${m}\n`);

const TEN_STEPS = {
  id: 'build-ten-steps',
  name: 'Ten code steps (bench)',
  version: '2026.11.01',
  artifactClass: 'knowledge',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'i', type: 'integer', required: true }] },
  runtimeSteps: Array.from({ length: 10 }, (_, i) => ({ id: `step-${i + 1}`, name: `Step ${i + 1}`, kind: 'code', function: 'identity', inputPath: 'intake' })),
  gates: [],
  providers: {},
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: [], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

async function main() {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const scratch = mkdtempSync(path.join(tmpdir(), 'atelier-engine-bench-'));
  chmodSync(scratch, 0o755); // the embedded PostgreSQL runs as its own user when we are root
  const stops: Array<() => Promise<void>> = [];
  try {
    const temporal = await startTemporalDevServer({ cliPath: await ensureTemporalCli(log), dbFile: path.join(scratch, 't.db'), port: await freePort(), uiPort: await freePort(), headless: true, log: () => undefined });
    stops.push(() => temporal.stop());
    const pg = await startEmbeddedPostgres({ dataDir: path.join(scratch, 'pg'), port: await freePort(), ephemeral: true });
    stops.push(() => pg.stop());
    const db = connectDb({ url: pg.url, max: 20 });
    stops.push(() => db.destroy());
    await migrateToLatest(db);
    await syncBuiltinWorkflows(db, [...loadBuiltinWorkflows(), TEN_STEPS as never]);
    const logger = pino({ level: 'silent' });
    const models = new ModelRegistry(LOCAL_MODELS);
    const storage = new LocalStorage(path.join(scratch, 'storage'));

    const native = await NativeConnection.connect({ address: temporal.address });
    const atelierWorker = await createRunWorker({ connection: native, namespace: 'default', taskQueue: 'bench-engine', db, logger, models, storage, providers: { localLatencyMs: 50 } });
    const bareWorker = await Worker.create({
      connection: native,
      taskQueue: 'bench-bare',
      workflowBundle: await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./bare-steps-workflows.ts', import.meta.url)), logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } }),
      activities: { noop: async (i: number) => i },
    });
    const running = [atelierWorker.run(), bareWorker.run()];
    stops.push(async () => {
      atelierWorker.shutdown();
      bareWorker.shutdown();
      await Promise.all(running);
      await native.close();
    });
    const connection = await Connection.connect({ address: temporal.address });
    stops.push(() => connection.close());
    const client = new Client({ connection });
    const events = new RunEventHub(pg.url, logger);
    stops.push(() => events.close());
    const api = await startApiServer({ db, temporal: client, taskQueue: 'bench-engine', logger, models, storage, events }, 0, '127.0.0.1');
    stops.push(() => api.close());
    const token = ((await (await fetch(`${api.url}/v1/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'e@example.com', password: 'a-long-bench-password', name: 'B' }) })).json()) as any).accessToken;
    const post = async (body: unknown) => ((await (await fetch(`${api.url}/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json()) as any).id as string;
    const settled = async (id: string) => {
      for (;;) {
        const row = await db.selectFrom('runs').select('status').where('id', '=', id).executeTakeFirstOrThrow();
        if (['completed', 'failed', 'review', 'cancelled'].includes(row.status)) return row.status;
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    log(`bare: ${RUNS} workflows of 10 no-op activities`);
    const bareLatency: number[] = [];
    let t0 = performance.now();
    await runBounded(RUNS, CONCURRENCY, async (i) => {
      const s = performance.now();
      await client.workflow.execute('tenNoopActivities', { taskQueue: 'bench-bare', workflowId: `bare-${i}-${Date.now()}`, args: [] });
      bareLatency.push(performance.now() - s);
    });
    const bareSeconds = (performance.now() - t0) / 1000;

    log(`atelier: ${RUNS} runs of a 10-step code workflow`);
    const atelierLatency: number[] = [];
    t0 = performance.now();
    await runBounded(RUNS, CONCURRENCY, async (i) => {
      const s = performance.now();
      const id = await post({ templateId: 'build-ten-steps', intake: { i } });
      if ((await settled(id)) !== 'completed') throw new Error(`run ${id} did not complete`);
      atelierLatency.push(performance.now() - s);
    });
    const atelierSeconds = (performance.now() - t0) / 1000;
    const bare = summarize(bareLatency);
    const atelier = summarize(atelierLatency);

    log('sse: streaming 10 plan-research-report runs');
    const sseLatency: number[] = [];
    let received = 0;
    let recorded = 0;
    await runBounded(10, 5, async (i) => {
      const id = await post({ templateId: 'plan-research-report', intake: { topic: `stream ${i}` } });
      const res = await fetch(`${api.url}/v1/runs/${id}/events`, { headers: { authorization: `Bearer ${token}` } });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let snapshotId = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const now = Date.now();
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event === 'snapshot') snapshotId = Number(/^id: (.+)$/m.exec(block)?.[1] ?? 0);
          if (!event || event === 'snapshot' || !data) continue;
          received += 1;
          sseLatency.push(now - Date.parse(JSON.parse(data).at));
        }
      }
      // Events written before the snapshot arrive inside it; every later one must arrive on its own.
      const after = await db.selectFrom('run_events').select((eb) => eb.fn.countAll<number>().as('n')).where('run_id', '=', id).where('seq', '>', snapshotId).executeTakeFirstOrThrow();
      recorded += Number(after.n);
    });
    const sse = summarize(sseLatency);

    console.log(
      JSON.stringify({
        bench: 'engine',
        perStep: {
          runs: RUNS,
          concurrency: CONCURRENCY,
          bare: { throughput: Math.round((RUNS / bareSeconds) * 10) / 10, p50Ms: bare.p50Ms, p99Ms: bare.p99Ms },
          atelier: { throughput: Math.round((RUNS / atelierSeconds) * 10) / 10, p50Ms: atelier.p50Ms, p99Ms: atelier.p99Ms },
          ratio: Math.round((bareSeconds / atelierSeconds) * 1000) / 1000,
          overheadPerStepMs: Math.round(((atelier.p50Ms - bare.p50Ms) / 10) * 10) / 10,
        },
        sse: { events: received, recordedAfterSnapshot: recorded, p50Ms: sse.p50Ms, p99Ms: sse.p99Ms, maxMs: sse.maxMs, targetP99Ms: 100 },
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
