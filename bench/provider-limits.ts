/**
 * Provider capacity held by the fleet: a loopback OpenAI-compatible provider admits BENCH_CAP requests in
 * any sliding second (20 by default) and answers 429 beyond; two worker processes (this one's stack and a
 * spawned `atelier worker`) share ATELIER_PROVIDER_LIMITS at that cap; BENCH_RUNS `plan-research-report`
 * runs (two model calls each, 100 by default) are posted at once.
 *
 * Printed, each beside its target: requests/s achieved over the busy period (first request to last) vs the
 * cap (≥ 0.9 × cap), the most requests the provider saw in any one-second window (≤ cap), requests it refused,
 * and runs failed (0). `npm run bench -- provider-limits`.
 *
 * BENCH_TOKENS_PER_MINUTE=N holds the fleet to tokens instead: the workers get `tokensPerMinute: N`, and the
 * provider, whose every answer reports TOKENS_PER_CALL tokens, admits N / 60 tokens in any sliding second (that
 * many calls' worth). The figures are then also given in tokens.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOKENS_PER_CALL, busiestSecond, startRateLimitedProvider, throughput } from '../test/support/rate-limited-openai';
import { atelierCliArgs } from './atelier-processes';
import { NAMESPACE, benchLog, createApiKey, http, intEnv, loadAvg, runMain, startAtelier, startInfra } from './harness';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bench = benchLog('provider-limits');
const TOKENS_PER_MINUTE = intEnv('BENCH_TOKENS_PER_MINUTE', 0, 0);
// Under a token limit, the provider's cap in calls is the tokens a second allows, a call's worth each.
const CAP = TOKENS_PER_MINUTE > 0 ? Math.floor(TOKENS_PER_MINUTE / 60 / TOKENS_PER_CALL) : intEnv('BENCH_CAP', 20, 1);
const LIMIT = TOKENS_PER_MINUTE > 0 ? { tokensPerMinute: TOKENS_PER_MINUTE } : { requestsPerSecond: CAP };
const RUNS = intEnv('BENCH_RUNS', 100, 1);

await runMain(bench, async (cleanup) => {
  const { log } = bench;
  const infra = await startInfra(cleanup, log);
  const provider = await startRateLimitedProvider({ cap: CAP });
  cleanup.add('the loopback provider', () => provider.close());
  const env = {
    OPENAI_BASE_URL: provider.baseUrl,
    OPENAI_API_KEY: 'sk-loopback',
    ATELIER_PROVIDER_LIMITS: JSON.stringify({ openai: LIMIT }),
  };
  Object.assign(process.env, env);
  const taskQueue = `bench-limits-${Date.now()}`;
  const atelier = await startAtelier(cleanup, infra, { namespace: NAMESPACE, taskQueue, localLatencyMs: 0 });
  const second = spawn(process.execPath, atelierCliArgs('worker'), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      ATELIER_TASK_QUEUE: taskQueue,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanup.add('the second worker', async () => {
    second.kill('SIGTERM');
    await new Promise((r) => (second.exitCode === null ? second.once('exit', r) : r(undefined)));
  });
  // The second worker bundles its workflows before it polls; give it the time to join.
  await new Promise((r) => setTimeout(r, intEnv('BENCH_JOIN_MS', 20_000)));
  const apiKey = await createApiKey(atelier.url);
  log(`posting ${RUNS} runs, cap ${CAP} requests/s (${JSON.stringify(LIMIT)}), 2 worker processes`);
  const ids = await Promise.all(
    Array.from({ length: RUNS }, async (_, i) => {
      const res = await http(
        atelier.url,
        'POST',
        '/v1/runs',
        {
          templateId: 'plan-research-report',
          intake: { topic: `capacity ${i}` },
          providers: { researcher: 'openai/gpt-4o-mini', textGenerator: 'openai/gpt-4o-mini' },
        },
        apiKey,
      );
      if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      return res.body.id as string;
    }),
  );
  const terminal = new Set(['completed', 'review', 'failed', 'cancelled']);
  let runs: Array<{ status: string }> = [];
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
    runs = await atelier.db.selectFrom('runs').select('status').where('id', 'in', ids).execute();
    if (runs.every((r) => terminal.has(r.status))) break;
  }
  const { arrivals, refused } = await provider.stats();
  const rate = throughput(arrivals);
  const figures = {
    cap: CAP,
    runs: RUNS,
    requests: rate.requests,
    busySeconds: Number(rate.seconds.toFixed(2)),
    achievedPerSecond: { atelier: Number(rate.perSecond.toFixed(2)), target: `>= ${0.9 * CAP}` },
    maxInAnySecond: { atelier: busiestSecond(arrivals), target: `<= ${CAP}` },
    ...(TOKENS_PER_MINUTE > 0
      ? {
          tokensPerMinute: TOKENS_PER_MINUTE,
          tokensPerSecond: {
            atelier: Math.round(rate.perSecond * TOKENS_PER_CALL),
            cap: Math.round(TOKENS_PER_MINUTE / 60),
            maxInAnySecond: busiestSecond(arrivals) * TOKENS_PER_CALL,
          },
        }
      : {}),
    refused429: refused,
    runsFailed: { atelier: runs.filter((r) => r.status !== 'completed').length, target: 0 },
    loadAvg: loadAvg(),
  };
  log(JSON.stringify(figures));
  return figures;
});
