/**
 * What one request costs each of Atelier's processes: requests made one at a time against an otherwise
 * idle stack (gateway and worker as processes of their own, as `npm start` runs them), with the CPU each
 * process spent read from /proc before and after, as a client outside them would see it. A diagnostic, not a
 * target: it tells where a ratio's CPU goes, request by request, without the noise of a loaded machine.
 *
 * Kinds: an idle stretch of the same length (what the processes spend doing nothing), `GET /healthz`,
 * `GET /v1/runs/{id}` of an ended run, the event stream of an ended run, `POST /v1/runs` with the run left to
 * end (the worker's CPU is the run's execution; the bench waits through its own pool), and a run created and
 * followed over its event stream to its end (the same, plus the stream).
 *
 * `npm run bench -- request-cpu`; BENCH_REQUESTS (200) per kind.
 */
import { processCpuMs } from './cpu';
import {
  NAMESPACE,
  RunWatcher,
  benchDbPool,
  benchLog,
  createApiKey,
  followRunStream,
  http,
  installRuntime,
  intEnv,
  postRun,
  runMain,
  startAtelier,
  startInfra,
} from './harness';

const settings = { requests: intEnv('BENCH_REQUESTS', 200, 1) };
const TEMPLATE = 'plan-research-report';
const bench = benchLog('request-cpu');
const { log } = bench;

/** CPU a process has spent so far (bench/cpu.ts reads it from /proc); the process must be alive. */
function cpuMs(pid: number): number {
  const ms = processCpuMs(pid);
  if (ms === undefined) throw new Error(`process ${pid} has gone`);
  return ms;
}

const RUN_TIMEOUT_MS = 60_000;

await runMain(bench, async (cleanup) => {
  log(`settings ${JSON.stringify(settings)}`);
  installRuntime();
  const infra = await startInfra(cleanup, log, 'memory');
  const atelier = await startAtelier(cleanup, infra, { namespace: NAMESPACE, taskQueue: 'atelier-request-cpu', localLatencyMs: 0 });
  if (!atelier.processes) throw new Error('request-cpu measures the gateway and the worker as processes of their own');
  const { gatewayPid, workerPid } = atelier.processes;
  const { url } = atelier;
  const apiKey = await createApiKey(url);
  // Runs left to end are awaited on the read model's NOTIFY, through the bench's own pool: no request to the gateway.
  const watcher = await RunWatcher.start(cleanup, benchDbPool(cleanup, infra), infra.databaseUrl, log);
  const follow = (id: string) => followRunStream(url, id, apiKey, RUN_TIMEOUT_MS);
  // Warm both processes (code compiled, connections open, statements prepared), and leave ended runs to read.
  const endedRuns: string[] = [];
  for (let i = 0; i < 50; i++) {
    const id = await postRun(url, apiKey, TEMPLATE, { topic: `warm-up ${i}` });
    await follow(id);
    endedRuns.push(id);
  }

  const n = settings.requests;
  const results: Record<string, { gatewayMs: number; workerMs: number; wallMs: number }> = {};
  /** `request` n times, one at a time; `drain`, inside the window, waits for the work the requests left behind. */
  const measure = async (kind: string, request: (i: number) => Promise<unknown>, drain?: () => Promise<void>) => {
    const [gateway0, worker0] = [cpuMs(gatewayPid), cpuMs(workerPid)];
    const began = performance.now();
    for (let i = 0; i < n; i++) await request(i);
    await drain?.();
    const wallMs = (performance.now() - began) / n;
    // A settlement's last statements may still be in flight in the worker: let them finish inside the window.
    await new Promise((r) => setTimeout(r, 200));
    const round2 = (x: number) => Math.round(x * 100) / 100;
    const result = {
      gatewayMs: round2((cpuMs(gatewayPid) - gateway0) / n),
      workerMs: round2((cpuMs(workerPid) - worker0) / n),
      wallMs: round2(wallMs),
    };
    results[kind] = result;
    log(`${kind}: gateway ${result.gatewayMs} ms CPU, worker ${result.workerMs} ms CPU, ${result.wallMs} ms wall, each`);
  };
  const idleMs = 50;
  await measure(`idle ${idleMs} ms`, () => new Promise((r) => setTimeout(r, idleMs)));
  await measure('GET /healthz', () => http(url, 'GET', '/healthz'));
  await measure('GET /v1/runs/{id}', (i) => http(url, 'GET', `/v1/runs/${endedRuns[i % endedRuns.length]}`, undefined, apiKey));
  await measure('event stream of an ended run', (i) => follow(endedRuns[i % endedRuns.length]!));
  const posted: string[] = [];
  await measure(
    'POST /v1/runs, the runs left to end',
    async (i) => posted.push(await postRun(url, apiKey, TEMPLATE, { topic: `posted ${i}` })),
    async () => {
      await Promise.all(posted.map((id) => watcher.completed(id, RUN_TIMEOUT_MS)));
    },
  );
  await measure('run posted and followed to its end', async (i) => {
    await follow(await postRun(url, apiKey, TEMPLATE, { topic: `followed ${i}` }));
  });
  return { bench: 'request-cpu', settings, perRequest: results };
});
