/**
 * The production-shaped stack's smoke run (`atelier stack production`: the real Temporal Server on PostgreSQL
 * with SQL visibility, 2 gateways, 3 workers as compiled processes). Through both gateways, as a client
 * would: registers, creates an API key, starts runs and an order and waits for them to complete, then a
 * burst of runs for a throughput figure; then runs every on-call query of docs/operations.md through the
 * `temporal` CLI against SQL visibility and says which it refuses. Prints one JSON line; progress on stderr.
 *
 *   npm run bench -- production-smoke         (starts its own stack, fresh, under .data/production-smoke)
 *   SMOKE_GATEWAYS=http://127.0.0.1:A,http://127.0.0.1:B SMOKE_TEMPORAL_ADDRESS=127.0.0.1:T npm run bench -- production-smoke
 *                                             (against a running `npm run stack:production`)
 *
 * SMOKE_RUNS (6) runs and an order of SMOKE_ORDER_SIZE (4) first; then SMOKE_BURST (40) runs at once.
 * SMOKE_WORKERS (3) and SMOKE_GATEWAY_COUNT (2) size the stack it starts.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { loadConfig } from '@atelier/cli/config';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type ProductionStack, startProductionStack } from '@atelier/cli/stack/production-stack';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { compileCheckout } from './infra';

const run = promisify(execFile);
const log = (msg: string) => process.stderr.write(`[production-smoke] ${msg}\n`);
const RUNS = Number(process.env.SMOKE_RUNS ?? 6);
const ORDER_SIZE = Number(process.env.SMOKE_ORDER_SIZE ?? 4);
const BURST = Number(process.env.SMOKE_BURST ?? 40);
const TERMINAL = ['completed', 'review', 'failed', 'cancelled', 'rejected', 'changes_requested'];
const ORDER_TERMINAL = ['completed', 'attention', 'failed', 'cancelled'];

async function call<T = any>(base: string, method: string, route: string, auth?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route} on ${base}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Polls until `done` holds for what `route` answers (on any gateway: they share one database). */
async function until(
  base: string,
  route: string,
  key: string,
  done: (body: any) => boolean,
  timeoutMs: number,
  everyMs = 200,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = await call(base, 'GET', route, key);
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${route} did not settle in ${timeoutMs} ms; last status ${last?.status}`);
}

const IN_FLIGHT = 64;

/** Calls `fn` for 0..n-1 with at most IN_FLIGHT calls pending; the results in order. */
async function pool<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(n);
  let next = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      results[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, n) }, lane));
  return results;
}

const startRun = (base: string, key: string, topic: string) =>
  call<{ id: string }>(base, 'POST', '/v1/runs', key, { templateId: 'plan-research-report', intake: { topic } }).then((r) => r.id);

/** The "On-call queries" table of docs/operations.md (the same reading as test/integration/temporal-queries.test.ts). */
async function documentedQueries(): Promise<Array<[string, string]>> {
  const doc = await readFile(path.join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8');
  const section = doc.split('\n### On-call queries\n')[1]?.split('\n#')[0] ?? '';
  return [...section.matchAll(/^\| ([^|`]+?) \| `([^`]+)` \|$/gm)].map((m) => [m[1]!, m[2]!]);
}

async function main() {
  let stack: ProductionStack | undefined;
  let gateways = (process.env.SMOKE_GATEWAYS ?? '').split(',').filter(Boolean);
  let temporalAddress = process.env.SMOKE_TEMPORAL_ADDRESS ?? '';
  const result: Record<string, unknown> = {};
  if (gateways.length === 0) {
    compileCheckout();
    const started = Date.now();
    const config = loadConfig();
    const dir = path.join(config.dataDir, 'production-smoke');
    log(`starting the production-shaped stack under ${dir}`);
    // SMOKE_WORKERS / SMOKE_GATEWAY_COUNT size the stack (3 and 2): with ATELIER_LOCAL_LATENCY_MS=2000, the burst's
    // throughput at 1, 2 and 3 workers is the scale-out figure.
    const sized = {
      ...(process.env.SMOKE_WORKERS ? { workers: Number(process.env.SMOKE_WORKERS) } : {}),
      ...(process.env.SMOKE_GATEWAY_COUNT ? { gateways: Number(process.env.SMOKE_GATEWAY_COUNT) } : {}),
    };
    stack = await startProductionStack(config, { dir, fresh: true, ...sized }, pino({ level: 'warn' }, pino.destination(2)));
    result.startMs = Date.now() - started;
    result.startPhasesMs = stack.timings;
    result.temporalVersion = stack.temporalVersion;
    gateways = stack.gatewayUrls;
    temporalAddress = stack.temporalAddress;
    log(`up in ${result.startMs} ms: gateways ${gateways.join(', ')}, workers ${stack.workerUrls.join(', ')}, Temporal ${temporalAddress}`);
  }
  try {
    const [g1, g2 = g1!] = gateways as [string, ...string[]];
    const email = `smoke-${Date.now()}@example.com`;
    const session = await call(g1, 'POST', '/v1/auth/register', undefined, {
      email,
      password: 'correct horse battery staple',
      name: 'Operator',
    });
    const key = (await call(g2, 'POST', '/v1/api-keys', session.accessToken, { name: 'smoke' })).secret as string;

    let t = Date.now();
    const runIds = await Promise.all(Array.from({ length: RUNS }, (_, i) => startRun(i % 2 ? g2 : g1, key, `smoke topic ${i}`)));
    const planned = await call(g2, 'POST', '/v1/orders', key, {
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: Array.from({ length: ORDER_SIZE }, (_, i) => ({ topic: `order item ${i}` })) } },
    });
    await call(g1, 'POST', `/v1/orders/${planned.id}/start`, key);
    const runs = await Promise.all(
      runIds.map((id, i) => until(i % 2 ? g1 : g2, `/v1/runs/${id}`, key, (r) => TERMINAL.includes(r.status), 120_000)),
    );
    const order = await until(g2, `/v1/orders/${planned.id}`, key, (o) => ORDER_TERMINAL.includes(o.status), 180_000);
    result.runs = runs.map((r) => r.status);
    result.order = { id: planned.id, status: order.status };
    result.firstBatchMs = Date.now() - t;
    log(`runs ${JSON.stringify(result.runs)}, order ${order.status}, in ${result.firstBatchMs} ms`);

    t = Date.now();
    // At most IN_FLIGHT requests open at once, as a client pool would: a gateway refuses connections from one
    // address past its cap (256), which hundreds of simultaneous requests from this one process would reach.
    const burst = await pool(BURST, (i) => startRun(gateways[i % gateways.length]!, key, `burst ${i}`));
    const burstRuns: any[] = [];
    let pending = burst;
    while (pending.length > 0) {
      if (Date.now() - t > 300_000) throw new Error(`${pending.length} burst runs still not settled after 300 s`);
      const seen = await pool(pending.length, (i) => call(gateways[i % gateways.length]!, 'GET', `/v1/runs/${pending[i]}`, key));
      burstRuns.push(...seen.filter((r) => TERMINAL.includes(r.status)));
      pending = pending.filter((_, i) => !TERMINAL.includes(seen[i].status));
      if (pending.length > 0) await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (Date.now() - t) / 1000;
    result.burst = {
      runs: BURST,
      seconds,
      runsPerSecond: Math.round((BURST / seconds) * 100) / 100,
      completed: burstRuns.filter((r) => r.status === 'completed').length,
    };
    log(`burst: ${JSON.stringify(result.burst)}`);

    // A run held for review: its execution waits open for the decision (listed by the on-call query below).
    const held = await call(g1, 'POST', '/v1/runs', key, { templateId: 'generate-product-shot', intake: { product: 'a smoke lamp' } });
    await until(g2, `/v1/runs/${held.id}`, key, (r) => r.status === 'review', 120_000);

    // Visibility is eventually consistent: a moment for the last attributes to land.
    await new Promise((r) => setTimeout(r, 2_000));
    const cli = await ensureTemporalCli(log);
    const values: Record<string, string> = {
      'template-id': 'plan-research-report',
      time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      'order-id': planned.id,
      'order-status': order.status,
      'workspace-id': runs[0].workspaceId ?? '',
    };
    const queries: Array<{ question: string; query: string; count?: number; refused?: string }> = [];
    // The real server limits visibility calls per namespace (frontend.namespaceRPS.visibility, 10/s by
    // default), which the dev server does not: a refusal for that is waited out, not reported.
    const cliCall = async (query: string, ...args: string[]) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await run(cli, [...args, '--address', temporalAddress, '--namespace', 'default', '--query', query]);
        } catch (err) {
          if (attempt > 10 || !/rate limit/.test(String((err as { stderr?: string }).stderr))) throw err;
          await new Promise((r) => setTimeout(r, 1_000));
        }
      }
    };
    for (const [question, template] of await documentedQueries()) {
      const query = template.replace(/<([a-z-]+)>/g, (_, name: string) => values[name] ?? `<${name}>`);
      try {
        const { stdout } = await cliCall(query, 'workflow', 'count');
        await cliCall(query, 'workflow', 'list', '--limit', '5');
        queries.push({ question, query, count: Number(stdout.match(/\d+/)?.[0] ?? Number.NaN) });
      } catch (err) {
        queries.push({ question, query, refused: ((err as { stderr?: string }).stderr || (err as Error).message).trim().split('\n')[0]! });
      }
    }
    result.onCallQueries = queries;
    for (const q of queries) log(`${q.refused ? 'REFUSED' : 'ok     '} ${q.question}: ${q.refused ?? `${q.count} executions`}`);

    // The decision reaches the waiting execution through one gateway's dispatcher and any worker, and SQL
    // visibility then shows the decided status on the closed execution.
    t = Date.now();
    await call(g2, 'POST', `/v1/queue/${held.id}/decision`, key, { decision: 'approve', patch: { usage: 'web' } });
    const decidedQuery = `WorkflowId = '${held.id}' AND ExecutionStatus = 'Completed' AND RunStatus = 'completed'`;
    let shown = false;
    while (!shown && Date.now() - t < 60_000) {
      const { stdout } = await cliCall(decidedQuery, 'workflow', 'count');
      shown = Number(stdout.match(/\d+/)?.[0]) === 1;
      if (!shown) await new Promise((r) => setTimeout(r, 500));
    }
    result.reviewDecision = { runId: held.id, shownInTemporal: shown, ms: Date.now() - t };
    log(`review decision ${shown ? 'shown' : 'NOT shown'} in Temporal's RunStatus after ${Date.now() - t} ms`);
  } finally {
    await stack?.stop();
  }
  console.log(JSON.stringify(result));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
