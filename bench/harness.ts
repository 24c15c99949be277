/**
 * What the benches that stand up the real stack share, so each bench file reads as what it measures:
 *
 * - settings from the environment (`intEnv`), progress on stderr (`benchLog`), the git state measured;
 * - `runMain`: the one shutdown path. Everything a bench starts is registered with a Cleanup (bench/infra.ts)
 *   and stopped in reverse order on success, on error, on Ctrl-C and on an unexpected error;
 * - the Temporal side: a quiet runtime, baseline workers configured like `createRunWorker`;
 * - the Atelier side: the `atelier dev` stack on the bench's own servers, an HTTP client with an API key;
 * - `RunWatcher` (run-watcher.ts): when runs reach a terminal status in the read model, from its announcements;
 * - `abba`: the order of the two sides in a round, so drift on a noisy machine favours neither.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, makeTelemetryFilterString } from '@temporalio/worker';
import type { AtelierConfig } from '@atelier/cli/config';
import { createLogger } from '@atelier/cli/logger';
import { startStack } from '@atelier/cli/stack/stack';
import { slotTuner, workerSlotsFromEnv } from '@atelier/engine/worker-slots';
import type { Db } from '@atelier/db';
import { generateFileSigningSecret } from '@atelier/storage/file-urls';
import { type AtelierOptions, type AtelierProcesses, startAtelierProcesses } from './atelier-processes';
import type { Meter } from './diagnostics';
import { Cleanup, type Infra, type Log, type TemporalStore, describe } from './infra';
import type { RunWatcher } from './run-watcher';
import { round1 } from './stats';

export { Cleanup, type Infra, type Log, NAMESPACE, benchDbPool, benchTemporalClient, describe, rawQuery, startInfra } from './infra';
export { RunWatcher, type Settled, TERMINAL } from './run-watcher';

// ------------------------------------------------------------------------------------ settings and logs

export function intEnv(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return n;
}

export function temporalStoreEnv(): TemporalStore {
  const store = process.env.BENCH_TEMPORAL_STORE || 'memory';
  if (store !== 'file' && store !== 'memory' && store !== 'server') throw new Error('BENCH_TEMPORAL_STORE must be file, memory or server');
  return store;
}

export interface BenchLog {
  log: Log;
  /** Seconds since the bench began. */
  seconds: () => number;
}

export function benchLog(prefix: string): BenchLog {
  const began = performance.now();
  const seconds = () => (performance.now() - began) / 1000;
  return { seconds, log: (message) => process.stderr.write(`[${prefix} ${seconds().toFixed(1).padStart(6)}s] ${message}\n`) };
}

export const loadAvg = () => os.loadavg().map((l) => round1(l));

/** The commit measured, and how many files outside bench/ differ from it (the working tree is what runs). */
export function gitState(): { commit: string; uncommittedFiles: number } | undefined {
  try {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    const status = git('status', '--porcelain', '--', '.', ':!bench', ':!.data', ':!.tools', ':!.test-data');
    return { commit: git('rev-parse', '--short', 'HEAD').trim(), uncommittedFiles: status.split('\n').filter(Boolean).length };
  } catch {
    return undefined;
  }
}

// ----------------------------------------------------------------------------------- the one shutdown

/**
 * Runs a bench's main with a Cleanup, prints its result as the one JSON line on stdout, and exits.
 * Ctrl-C (or SIGTERM) stops everything and exits 130; it can arrive twice at once (from the terminal and
 * forwarded by scripts/bootstrap.mjs), so a repeat within two seconds is ignored and a later one forces the
 * exit of a shutdown that hangs. Work cut off by the shutdown (a client call on a closed connection) fails
 * late and must not end the process before everything is stopped; outside a shutdown, an unexpected error
 * stops everything too.
 */
export async function runMain(
  { log, seconds }: BenchLog,
  main: (cleanup: Cleanup, aborted: () => boolean) => Promise<unknown>,
): Promise<never> {
  const cleanup = new Cleanup(log);
  let interrupted = false;
  let stopping = false;
  let firstSignalAt = 0;
  const stopAndExit = (code: number) => {
    stopping = true;
    void cleanup.run().finally(() => {
      log(`stopped after ${seconds().toFixed(1)} s`);
      process.exit(code);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupted) {
        if (Date.now() - firstSignalAt > 2_000) {
          log('forced exit');
          process.exit(130);
        }
        return;
      }
      interrupted = true;
      firstSignalAt = Date.now();
      log(`${signal}: stopping everything`);
      stopAndExit(130);
    });
  }
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (err: unknown) => {
      if (stopping) return log(`ignored while stopping: ${describe(err)}`);
      log(`${event}: ${(err as Error)?.stack ?? describe(err)}`);
      stopAndExit(1);
    });
  }

  let exitCode = 0;
  try {
    const result = await main(cleanup, () => interrupted);
    log('stopping');
    stopping = true;
    await cleanup.run();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (err) {
    exitCode = 1;
    if (!interrupted) log(`failed: ${(err as Error).stack ?? describe(err)}`);
    stopping = true;
    await cleanup.run();
  }
  log(`done in ${seconds().toFixed(1)} s`);
  process.exit(interrupted ? 130 : exitCode);
}

// ------------------------------------------------------------------------------------------- Temporal

/** The SDK's runtime, quiet but for errors; shutdown order is the bench's own (Cleanup), not the SDK's on a signal. */
export function installRuntime(): void {
  Runtime.install({
    logger: new DefaultLogger('ERROR', (entry) => process.stderr.write(`[temporal ${entry.level}] ${entry.message}\n`)),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } },
    shutdownSignals: [],
  });
}

/** Bundles a baseline's workflow file; start it early (it takes seconds) and await it when the worker is made. */
export function bundleBaseline(workflowsPath: string, log: Log): Promise<{ code: string }> {
  const quiet = () => undefined;
  const logger = {
    log: quiet,
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: (m: string) => log(`bundler: ${m}`),
    error: (m: string) => log(`bundler: ${m}`),
  };
  const bundling = bundleWorkflowCode({ workflowsPath, logger });
  bundling.catch(() => undefined);
  return bundling;
}

/** Runs a worker until the cleanup stops it. */
export function keepRunning(cleanup: Cleanup, name: string, worker: Pick<Worker, 'run' | 'getState' | 'shutdown'>): void {
  const running = worker.run();
  running.catch(() => undefined);
  cleanup.add(name, async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
  });
}

/** A baseline worker with the same limits as createRunWorker, running until the cleanup stops it. */
export async function startBaselineWorker(
  cleanup: Cleanup,
  opts: {
    connection: NativeConnection;
    namespace: string;
    taskQueue: string;
    workflowBundle: { code: string };
    activities: object;
    /** Activity slots: createRunWorker's unless a bench gives the baseline enough for what it waits on. */
    maxActivities?: number;
  },
): Promise<Worker> {
  const slots = workerSlotsFromEnv();
  const { maxActivities = slots.activities, ...options } = opts;
  const worker = await Worker.create({
    ...options,
    tuner: slotTuner(maxActivities, slots.workflowTasks),
    shutdownGraceTime: '10 seconds',
  });
  keepRunning(cleanup, `the baseline worker (${opts.taskQueue})`, worker);
  return worker;
}

/** The baseline worker on a Temporal connection of its own, closed at cleanup. */
export async function startBaselineWorkerConnected(
  cleanup: Cleanup,
  infra: Infra,
  opts: Omit<Parameters<typeof startBaselineWorker>[1], 'connection'>,
): Promise<Worker> {
  const connection = await NativeConnection.connect({ address: infra.temporalAddress });
  cleanup.add('the baseline worker connection', () => connection.close());
  return startBaselineWorker(cleanup, { ...opts, connection });
}

// --------------------------------------------------------------------------------------------- Atelier

/**
 * The real stack on the bench's servers, shaped as `npm start` runs it: a gateway process and a worker
 * process (atelier-processes.ts). BENCH_ATELIER_PROCESSES=one runs both inside the bench's own process
 * instead, as `atelier dev` did before they were split, for comparison.
 */
export async function startAtelier(
  cleanup: Cleanup,
  infra: Infra,
  opts: AtelierOptions,
): Promise<{ url: string; db: Db; processes?: AtelierProcesses }> {
  const shape = process.env.BENCH_ATELIER_PROCESSES || 'separate';
  if (shape !== 'separate' && shape !== 'one') throw new Error('BENCH_ATELIER_PROCESSES must be separate or one');
  if (shape === 'separate') {
    const processes = await startAtelierProcesses(cleanup, infra, opts);
    return { url: processes.url, db: processes.db, processes };
  }
  const config: AtelierConfig = {
    dataDir: infra.tmpDir,
    apiPort: 0,
    apiHost: '127.0.0.1',
    temporalAddress: infra.temporalAddress,
    temporalPort: 0,
    temporalUiPort: 0,
    dependencyWaitMs: 0,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    databaseUrl: infra.databaseUrl,
    embeddedPgPort: 0,
    localLatencyMs: opts.localLatencyMs,
    ...(opts.orderConcurrency ? { orderConcurrency: opts.orderConcurrency } : {}),
    storageDir: `${infra.tmpDir}/storage`,
    fileSigningSecret: generateFileSigningSecret(),
    // The gateway's port is the OS's choice; the benches read no file URLs, so any origin will do.
    publicUrl: 'http://127.0.0.1',
    logLevel: 'silent',
  };
  const stack = await startStack(config, { api: true, worker: true, embedded: false }, createLogger('silent'));
  cleanup.add('the Atelier stack', () => stack.stop());
  if (!stack.api) throw new Error('the stack started no gateway');
  return { url: stack.api.url, db: stack.db };
}

export interface HttpResult {
  status: number;
  body: any;
}

/**
 * The bench's HTTP client: node:http with kept-alive connections. The client stands in for API consumers on
 * other machines, so it should cost this one little; fetch (undici's WHATWG streams) cost about twice as
 * much CPU per request, all of it counted on the Atelier side.
 */
const keptAlive = new Agent({ keepAlive: true, maxSockets: 256 });

export function http(baseUrl: string, method: string, route: string, body?: unknown, token?: string): Promise<HttpResult> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${route}`, { method, headers, agent: keptAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        try {
          resolve({ status, body: text ? JSON.parse(text) : null });
        } catch {
          resolve({ status, body: text });
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Follows a run's event stream (GET /v1/runs/{id}/events) until the gateway ends it, which it does once the
 * run is terminal; answers the last run status the stream carried. node:http, like `http`, to cost the
 * machine little on the client's side.
 */
export function followRunStream(baseUrl: string, runId: string, token: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/v1/runs/${runId}/events`,
      { headers: { authorization: `Bearer ${token}` }, agent: keptAlive },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`GET /v1/runs/${runId}/events: ${res.statusCode}`));
        }
        let status: string | undefined;
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            // The snapshot carries the run's status when the stream opens; each run.status event a new one.
            if (!block.includes('event: run.status') && !block.includes('event: snapshot')) continue;
            const data = block.split('\n').find((l) => l.startsWith('data:'));
            status = data ? ((JSON.parse(data.slice(5)) as { status?: string }).status ?? status) : status;
          }
        });
        res.on('error', reject);
        res.on('end', () => resolve(status));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`run ${runId}: its stream did not end within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** A user and an API key, created through the gateway like any integrator would. */
export async function createApiKey(baseUrl: string): Promise<string> {
  const email = `bench-${randomBytes(5).toString('hex')}@example.com`;
  const reg = await http(baseUrl, 'POST', '/v1/auth/register', { email, password: 'quiet falcon ember ledger', name: 'Bench' });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const key = await http(baseUrl, 'POST', '/v1/api-keys', { name: 'bench' }, reg.body.accessToken);
  if (key.status !== 201) throw new Error(`API key failed: ${key.status} ${JSON.stringify(key.body)}`);
  return key.body.secret as string;
}

/** POST /v1/runs; throws unless the run was created. */
export async function postRun(baseUrl: string, apiKey: string, templateId: string, intake: Record<string, unknown>): Promise<string> {
  const res = await http(baseUrl, 'POST', '/v1/runs', { templateId, intake }, apiKey);
  if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.id as string;
}

// ----------------------------------------------------------------------------------------------- rounds

/** ABBA: odd rounds run `a` first, even rounds `b` first, so drift on a noisy machine favours neither side. */
export function abba<T>(round: number, a: T, b: T): [T, T] {
  return round % 2 === 1 ? [a, b] : [b, a];
}

// ------------------------------------------------------------------------------------ what the targets share

/** Both sides of a comparison, on the same servers: a Temporal client and baseline queue, the Atelier gateway. */
export interface Sides {
  infra: Infra;
  /** A Temporal client, for the baselines and for reading histories. */
  client: Client;
  bareQueue: string;
  /** The Atelier gateway and an API key on it. */
  atelierUrl: string;
  apiKey: string;
  watcher: RunWatcher;
  /**
   * How the runs target learns a run ended: `watch`, the read model's announcements (RunWatcher); `stream`,
   * each run's event stream over HTTP until the gateway ends it, as an API client would (BENCH_RUNS_FOLLOW).
   */
  follow?: 'watch' | 'stream';
  /** The bench's own small pool (the watch, counters, samplers, the run-creation baseline's inserts use their own). */
  benchDb: Db;
  meter: Meter;
  /** Queries the bench makes apart from the watch's (counted so the meter leaves them out). */
  own: { queries: number };
  runTimeoutMs: number;
  log: Log;
  aborted: () => boolean;
}
