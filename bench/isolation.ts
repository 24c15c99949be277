/**
 * Worker slots and queues (docs/architecture.md, Slots and queues): do ordinary runs keep their latency when
 * other runs wait on a provider that never answers and integrators hang, and what does a model call in
 * flight cost in memory? `npm run bench -- isolation`. Prints, both sides of each:
 *
 * - 10 ordinary runs (`plan-research-report`, two `local` calls of ATELIER_LOCAL_LATENCY_MS each, 2,000 by
 *   default): the slowest one's latency idle, and again with 60 runs waiting on a provider that never
 *   answers plus deliveries to two event-webhook endpoints, one that never answers and one that answers
 *   after 10 s (target ≤ 1.2×);
 * - the worker's RSS with 50 model calls in flight and with 2,000 (target ≤ 1.3×), each read every 5 s until
 *   it settles (at least BENCH_MEMORY_SETTLE_MS, 30 s, and past a full collection) and compared settled, once
 *   the garbage of the calls' start is collected; the first readings' ratio is printed beside it.
 *
 * The provider is the `openai` adapter pointed at a loopback server (OPENAI_BASE_URL) that never answers;
 * the stack runs with ATELIER_WORKER_MAX_ACTIVITIES=2500 (unless set) so that 2,000 calls fit. The provider
 * speaks TLS, offering HTTP/2 and HTTP/1.1 as real providers do (its certificate trusted by the worker through
 * NODE_EXTRA_CA_CERTS); BENCH_PROVIDER_TLS=0 serves plain HTTP/1.1 instead, and ATELIER_PROVIDER_HTTP2=0
 * makes the worker call it over HTTP/1.1.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { type Http2ServerRequest, type Http2ServerResponse, createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { Db } from '@atelier/db';
import { LOOPBACK_TLS } from '../test/support/loopback-tls';
import {
  type Cleanup,
  NAMESPACE,
  benchLog,
  rawQuery,
  createApiKey,
  http,
  installRuntime,
  intEnv,
  runMain,
  startAtelier,
  startInfra,
} from './harness';

const settings = {
  localLatencyMs: intEnv('ATELIER_LOCAL_LATENCY_MS', 2_000),
  hungRuns: intEnv('BENCH_HUNG_RUNS', 60),
  deliveringRuns: intEnv('BENCH_DELIVERING_RUNS', 30),
  manyCalls: intEnv('BENCH_MANY_CALLS', 2_000, 51),
  // A worker in the bench's own process (BENCH_ATELIER_PROCESSES=one) cannot be told to trust the certificate.
  providerTls: intEnv('BENCH_PROVIDER_TLS', process.env.BENCH_ATELIER_PROCESSES === 'one' ? 0 : 1, 0) === 1,
  /** At each measure the worker's memory is read every 5 s for at least this long (and at most three times as long). */
  settleMs: intEnv('BENCH_MEMORY_SETTLE_MS', 30_000),
};
const bench = benchLog('isolation');
const { log } = bench;

/**
 * A loopback server that counts the requests it holds; `answer` decides (by path) when, if ever, to answer.
 * With `tls` it serves HTTPS offering HTTP/2 and HTTP/1.1 (as providers do); without, plain HTTP/1.1.
 */
async function loopback(cleanup: Cleanup, name: string, answerAfterMs: (path: string) => number | undefined, tls = false) {
  const state = { open: 0, received: 0, versions: {} as Record<string, number> };
  const connections = new Set<{ destroy: () => void }>();
  const hold = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    state.open++;
    state.received++;
    state.versions[req.httpVersion] = (state.versions[req.httpVersion] ?? 0) + 1;
    res.on('close', () => state.open--);
    req.resume();
    const after = answerAfterMs(req.url ?? '');
    if (after !== undefined)
      setTimeout(() => (res as ServerResponse).writeHead(200, { 'content-type': 'application/json' }).end('{}'), after);
  };
  const server = tls
    ? createSecureServer({ cert: LOOPBACK_TLS.cert(), key: LOOPBACK_TLS.key(), allowHTTP1: true }, hold)
    : createServer({ requestTimeout: 0 }, hold);
  server.on(tls ? 'secureConnection' : 'connection', (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.add(name, async () => {
    for (const socket of connections) socket.destroy();
    await new Promise((r) => server.close(r));
  });
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Where a worker's resident memory is, from its /metrics: the main thread's heap, memory outside it, cached runs,
 * and the provider connections its calls wait on; and how many full (mark-compact) collections it has made.
 */
async function workerMemory(workerUrl: string): Promise<{ breakdown: string; fullCollections: number }> {
  const text = await fetch(`${workerUrl}/metrics`).then((r) => r.text());
  const value = (name: string, label = '') => {
    const line = text.split('\n').find((l) => (l.startsWith(`${name} `) || l.startsWith(`${name}{`)) && l.includes(label));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
  };
  const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
  const fullCollections = value('nodejs_gc_duration_seconds_count', 'kind="major"');
  const breakdown = [
    `RSS ${mb(value('process_resident_memory_bytes'))}`,
    `heap used ${mb(value('nodejs_heap_size_used_bytes'))} of ${mb(value('nodejs_heap_size_total_bytes'))}`,
    `(new space ${mb(value('nodejs_heap_space_size_total_bytes', 'space="new"'))}, old ${mb(value('nodejs_heap_space_size_used_bytes', 'space="old"'))} used of ${mb(value('nodejs_heap_space_size_total_bytes', 'space="old"'))})`,
    `external ${mb(value('nodejs_external_memory_bytes'))}`,
    `cached runs ${value('temporal_sticky_cache_size')}`,
    `activity slots used ${value('temporal_worker_task_slots_used', 'ActivityWorker')}`,
    `detached steps ${value('atelier_worker_detached_steps')}`,
    `provider requests in flight ${value('atelier_provider_requests_in_flight', 'protocol="h2"')} over ${value('atelier_provider_connections', 'protocol="h2"')} HTTP/2 connections, ${value('atelier_provider_requests_in_flight', 'protocol="http/1.1"')} over HTTP/1.1`,
    `full collections ${fullCollections}`,
  ].join(', ');
  return { breakdown, fullCollections };
}

async function main(cleanup: Cleanup): Promise<Record<string, unknown>> {
  installRuntime();
  const provider = await loopback(cleanup, 'the provider that never answers', () => undefined, settings.providerTls);
  const integrator = await loopback(cleanup, 'the integrator', (path) => (path === '/slow' ? 10_000 : undefined));
  Object.assign(process.env, {
    OPENAI_BASE_URL: `${provider.url}/v1`,
    OPENAI_API_KEY: 'sk-loopback',
    OPENAI_TIMEOUT_MS: String(60 * 60_000),
    ATELIER_EGRESS_ALLOW: '127.0.0.0/8',
    ...(settings.providerTls ? { NODE_EXTRA_CA_CERTS: LOOPBACK_TLS.certPath } : {}),
    ATELIER_SECRETS_KEY: randomBytes(32).toString('base64'),
    ATELIER_WORKER_MAX_ACTIVITIES: process.env.ATELIER_WORKER_MAX_ACTIVITIES ?? '2500',
  });
  log(`settings ${JSON.stringify(settings)}, ATELIER_WORKER_MAX_ACTIVITIES=${process.env.ATELIER_WORKER_MAX_ACTIVITIES}`);
  const infra = await startInfra(cleanup, log, 'memory');
  const atelier = await startAtelier(cleanup, infra, {
    namespace: NAMESPACE,
    taskQueue: 'bench-isolation',
    localLatencyMs: settings.localLatencyMs,
  });
  // The worker's resident memory: its own process's, as npm start runs it; in one process with the gateway
  // and the bench (BENCH_ATELIER_PROCESSES=one), that process's.
  const processes = atelier.processes;
  const rssNow = async () => {
    if (!processes) return { rss: Math.round(process.memoryUsage().rss / 1024 / 1024), fullCollections: Number.NaN };
    const { breakdown, fullCollections } = await workerMemory(processes.workerUrl);
    log(`  worker memory: ${breakdown}`);
    return { rss: await processes.rssMb(processes.workerPid), fullCollections };
  };
  /**
   * The worker's RSS read every 5 s until it has settled: at least `settleMs`, and then until V8 has made a
   * full collection since the first reading and three readings in a row lie within 1% (three times `settleMs`
   * at most). The first reading still holds the garbage of the calls' start, which V8 collects within 5–30 s,
   * so it swings with the collector's timing; readings steady before a full collection can still hold that
   * garbage in the old space (one bench read 497 MB so, and 367–377 MB once collected). The settled reading is
   * what the calls in flight hold, and is the one compared.
   */
  const rssMb = async () => {
    const first = await rssNow();
    const readings = [first.rss];
    let collected = !Number.isFinite(first.fullCollections);
    const settled = () => {
      const last = readings.slice(-3);
      return collected && last.length === 3 && Math.max(...last) <= Math.min(...last) * 1.01;
    };
    for (let waited = 0; waited < settings.settleMs || (!settled() && waited < 3 * settings.settleMs); waited += 5_000) {
      await new Promise((r) => setTimeout(r, 5_000));
      const now = await rssNow();
      readings.push(now.rss);
      collected ||= now.fullCollections > first.fullCollections;
    }
    log(`  worker RSS every 5 s: ${readings.join(', ')} MB${collected ? '' : ' (no full collection within the time allowed)'}`);
    // Under BENCH_PROFILE_DIR, a heap snapshot of the worker at each measure (atelier-processes.ts).
    if (processes && process.env.BENCH_PROFILE_DIR) {
      process.kill(processes.workerPid, 'SIGUSR2');
      await new Promise((r) => setTimeout(r, 20_000));
    }
    return { first: readings[0]!, settled: readings.at(-1)!, collected };
  };
  const [measured, noisy] = [await createApiKey(atelier.url), await createApiKey(atelier.url)];
  const start = async (key: string, providers: Record<string, string> = {}) => {
    const res = await http(
      atelier.url,
      'POST',
      '/v1/runs',
      { templateId: 'plan-research-report', intake: { topic: 'slots' }, providers },
      key,
    );
    if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body.id as string;
  };
  const startMany = async (n: number, key: string, providers?: Record<string, string>) => {
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (ids.length < n) {
          ids.push('');
          ids[ids.length - 1] = await start(key, providers);
        }
      }),
    );
    return ids;
  };
  const hang = (n: number) => startMany(n, noisy, { researcher: 'openai/gpt-4o-mini' });
  const tenRuns = () => slowestOfTen(atelier.db, () => start(measured));

  log('10 runs, idle');
  await tenRuns(); // warm-up: first bundles, connections, caches
  const idle = await tenRuns();

  log(`${settings.hungRuns} runs on a provider that never answers, ${settings.deliveringRuns} runs announced to two hanging endpoints`);
  const workspaceId = (await http(atelier.url, 'GET', '/v1/workspaces', undefined, noisy)).body.items[0].id;
  for (const p of ['/hang', '/slow']) {
    const res = await http(
      atelier.url,
      'POST',
      '/v1/webhook-endpoints',
      { workspaceId, url: `${integrator.url}${p}`, events: ['run.completed'] },
      noisy,
    );
    if (res.status !== 201) throw new Error(`POST /v1/webhook-endpoints: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  await hang(50);
  await until('50 calls in flight', () => provider.state.open >= 50, 60_000);
  await new Promise((r) => setTimeout(r, 3_000));
  const rssAt50 = await rssMb();
  await hang(settings.hungRuns - 50);
  await settled(atelier.db, await startMany(settings.deliveringRuns, noisy), 120_000);
  await until('the deliveries to pile up', () => integrator.state.received >= settings.deliveringRuns * 2 * 0.9, 60_000);
  const busy = await tenRuns();
  log(`  ${provider.state.open} calls and ${integrator.state.open} deliveries hanging while the 10 runs ran`);

  log(`${settings.manyCalls} model calls in flight`);
  await hang(settings.manyCalls - settings.hungRuns);
  await until(`${settings.manyCalls} calls in flight`, () => provider.state.open >= settings.manyCalls, 600_000);
  await new Promise((r) => setTimeout(r, 3_000));
  const rssAtMany = await rssMb();
  const protocols = Object.entries(provider.state.versions)
    .map(([version, n]) => `HTTP/${version} ${n}`)
    .join(', ');
  log(`the provider (${settings.providerTls ? 'TLS' : 'plain'}) was called over ${protocols}`);

  const latencyRatio = busy / idle;
  const rssRatio = rssAtMany.settled / rssAt50.settled;
  const firstRssRatio = rssAtMany.first / rssAt50.first;
  const line = (what: string, a: string, b: string, ratio: number, target: number) =>
    `${what}: ${a} vs ${b} = ${ratio.toFixed(2)}× (target ≤ ${target}×: ${ratio <= target ? 'met' : 'NOT met'})`;
  log(line('10 runs, slowest', `${busy} ms busy`, `${idle} ms idle`, latencyRatio, 1.2));
  log(
    `${line(`${processes ? 'worker ' : ''}RSS, settled`, `${rssAtMany.settled} MB at ${settings.manyCalls} calls`, `${rssAt50.settled} MB at 50`, rssRatio, 1.3)}; at the first reading ${rssAtMany.first} vs ${rssAt50.first} MB = ${firstRssRatio.toFixed(2)}×`,
  );
  return {
    settings,
    idleMs: idle,
    busyMs: busy,
    latencyRatio,
    rssAt50Mb: rssAt50.settled,
    rssAtManyMb: rssAtMany.settled,
    rssRatio,
    firstReading: { rssAt50Mb: rssAt50.first, rssAtManyMb: rssAtMany.first, rssRatio: firstRssRatio },
    fullCollectionBeforeSettled: { at50: rssAt50.collected, atMany: rssAtMany.collected },
    provider: { tls: settings.providerTls, requestsByHttpVersion: provider.state.versions },
  };
}

/** Starts 10 runs at once and answers the slowest one's time from its start to its completion (ms). */
async function slowestOfTen(db: Db, start: () => Promise<string>): Promise<number> {
  const began = Date.now();
  const ids = await Promise.all(Array.from({ length: 10 }, start));
  await settled(db, ids, 300_000);
  const rows = await db.selectFrom('runs').select(['status', 'finished_at']).where('id', 'in', ids).execute();
  if (rows.some((r) => r.status !== 'completed')) throw new Error(`a measured run ended ${rows.map((r) => r.status).join(', ')}`);
  return Math.max(...rows.map((r) => new Date(r.finished_at ?? Date.now()).getTime())) - began;
}

async function settled(db: Db, ids: string[], timeoutMs: number): Promise<void> {
  await until(
    `${ids.length} runs to settle`,
    async () => {
      const [row] = await rawQuery<{ n: number }>(
        db,
        `SELECT count(*)::int AS n FROM runs WHERE id = ANY($1) AND status IN ('completed', 'failed', 'cancelled', 'review')`,
        [ids],
      );
      const n = row?.n ?? 0;
      return n === ids.length;
    },
    timeoutMs,
  );
}

await runMain(bench, main);
