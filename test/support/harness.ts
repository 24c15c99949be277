import { randomBytes } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { type ApiServer, type AppServices, RunEventHub, startApiServer } from '@atelier/api';
import type { LoginThrottleSettings } from '@atelier/api/auth/login-throttle';
import { type Db, TABLE_CHANGES_CHANNEL, connectDb } from '@atelier/db';
import { sql } from 'kysely';
import { LOCAL_MODELS, ModelRegistry, isTerminalRunStatus } from '@atelier/domain';
import type { WorkerMetrics } from '@atelier/engine/metrics';
import { type ProviderJobSettings, createRunWorker } from '@atelier/engine/worker';
import { type EgressPolicy, LOOPBACK_HOSTS, egressPolicyFromEnv } from '@atelier/egress';
import { LocalStorage } from '@atelier/storage';
import { type FileUrlSigning, fileUrlSigning, generateFileSigningSecret } from '@atelier/storage/file-urls';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { atelierArgs } from './atelier-cli';
import { answersReady, freePort, waitFor } from '@atelier/cli/stack/processes';
import path from 'node:path';
import { type ProviderOptions, createProviders } from '@atelier/engine/providers/index';
import type { WebhookRetrySettings } from '@atelier/engine/webhooks/types';

try {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
} catch {
  // already installed in this process
}

export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Harness {
  url: string;
  events: RunEventHub;
  storage: LocalStorage;
  /** The gateway's file URL signing settings (a random secret per harness unless the test gave one). */
  fileUrls: FileUrlSigning;
  /** The bearer token the gateway's /metrics asks for. */
  metricsToken: string;
  db: Db;
  databaseUrl: string;
  temporal: Client;
  temporalAddress: string;
  taskQueue: string;
  request: Requester;
  startWorker(opts?: WorkerStart): Promise<{ stop(): Promise<void> }>;
  /** What the harness's gateway runs on (its own dispatcher aside), for a test that builds another gateway or app over the same stack. */
  gatewayServices(extra?: Partial<AppServices>): AppServices;
  stop(): Promise<void>;
}

/** A request to a gateway: a JSON body or a raw one, a bearer token; the answer's body parsed when it is JSON. */
export type Requester = <T = any>(
  method: string,
  path: string,
  opts?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
) => Promise<HttpResult<T>>;

/** Requests to the gateway at `baseUrl` (the harness's own, or one a test started as a process). */
export function requestTo(baseUrl: string): Requester {
  return async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    } else if (o.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed as never, headers: res.headers };
  };
}

let bundle: Promise<{ code: string }> | undefined;
const workflowBundle = () => (bundle ??= readFile(inject('workflowBundlePath'), 'utf8').then((code) => ({ code })));

/** A fresh database cloned from the suite's migrated template. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  const name = `atelier_test_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** What a worker the harness starts may be given beyond the harness's options. */
export interface WorkerStart {
  localLatencyMs?: number;
  /** How steps wait for provider jobs and batches: by default a look every 200 ms, batches sent after 500 ms, no webhooks. */
  providerJobs?: ProviderJobSettings;
  /** Activity slots of the run queue's worker (worker-slots.ts's default otherwise). */
  maxConcurrentActivities?: number;
  /** Step attempts run detached from the slots at once (worker-slots.ts's default otherwise). */
  maxDetachedSteps?: number;
  /** Where the worker counts what it does (none otherwise). */
  metrics?: WorkerMetrics;
  /** How long a step attempt runs in its slot before it detaches (step-attempt.ts's default otherwise). */
  detachAfterMs?: number;
}

/**
 * A real gateway on a real port, over its own database and task queue, with (by default) an in-process
 * worker — all against the suite's real Temporal dev server and PostgreSQL.
 */
export interface HarnessOptions {
  worker?: boolean;
  localLatencyMs?: number;
  /** Provider adapters beyond the defaults (for example openai pointed at a loopback server). */
  providers?: ProviderOptions;
  models?: ModelRegistry;
  sseHeartbeatMs?: number;
  orderConcurrency?: number;
  /** A migrated database of the test's own (for example on a PostgreSQL it stops and starts). */
  databaseUrl?: string;
  /** The pool's bound on one statement (connectDb's queryTimeoutMs); none by default, as before. */
  dbQueryTimeoutMs?: number;
  /** A Temporal server of the test's own (for example one it stops and starts). */
  temporalAddress?: string;
  /** The task queue of workers the test started before the gateway (a fresh one by default). */
  taskQueue?: string;
  /**
   * The workers' and the gateway's egress policy. By default production's deny policy with this machine's loopback addresses
   * allowed (tests serve clips from loopback servers and the gateway); nothing else private is reachable.
   */
  egress?: EgressPolicy;
  /** The secret and lifetime of signed file URLs; by default a random secret and the 7-day lifetime. */
  fileUrls?: FileUrlSigning;
  /** The gateway's public URL (ATELIER_PUBLIC_URL); its own address by default. */
  publicUrl?: string;
  /** Backoff of webhook deliveries (tests shorten it); the secrets key sealing webhook secrets is random per harness. */
  webhookRetry?: Partial<WebhookRetrySettings>;
  /** The key sealing webhook secrets, for a test that hands it to a spawned worker too. */
  secretsKey?: Buffer;
  /** The sign-in throttle (tests shorten its back-off); ATELIER_LOGIN_* and the defaults otherwise. */
  loginThrottle?: Partial<LoginThrottleSettings>;
  /** Proxies whose X-Forwarded-For the gateway believes (0 unless a test says). */
  trustedProxyHops?: number;
  /** The Temporal Web UI the console links runs to (ATELIER_TEMPORAL_UI_URL); none unless a test says. */
  temporalUiUrl?: string;
}

/** Production's egress policy plus loopback: what harness workers use unless a test says otherwise. */
export const TEST_EGRESS_POLICY: EgressPolicy = egressPolicyFromEnv({}, { allowHosts: [...LOOPBACK_HOSTS] });

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const models = opts.models ?? new ModelRegistry(LOCAL_MODELS);
  const storage = new LocalStorage(path.join(PROJECT_ROOT, '.test-data', 'storage', randomBytes(5).toString('hex')));
  const fileUrls = opts.fileUrls ?? fileUrlSigning(generateFileSigningSecret());
  const metricsToken = randomBytes(16).toString('hex');
  const databaseUrl = opts.databaseUrl ?? (await createTestDatabase());
  const db = connectDb({ url: databaseUrl, max: 10, ...(opts.dbQueryTimeoutMs ? { queryTimeoutMs: opts.dbQueryTimeoutMs } : {}) });
  const temporalAddress = opts.temporalAddress ?? inject('temporalAddress');
  const taskQueue = opts.taskQueue ?? `test-${randomBytes(4).toString('hex')}`;
  const connection = await Connection.connect({ address: temporalAddress });
  const temporal = new Client({ connection, namespace: 'default' });
  const stops: Array<() => Promise<void>> = [];
  const secretsKey = opts.secretsKey ?? randomBytes(32);

  const startWorker = async (w: WorkerStart = {}) => {
    const nativeConnection = await NativeConnection.connect({ address: temporalAddress });
    // The run queue's worker and the webhook queue's, started and stopped together.
    const worker = await createRunWorker({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
      db,
      logger: silentLogger,
      providers: { ...opts.providers, localLatencyMs: w.localLatencyMs ?? opts.localLatencyMs ?? 0 },
      models,
      storage,
      workflowBundle: await workflowBundle(),
      egress: opts.egress ?? TEST_EGRESS_POLICY,
      secretsKey,
      providerJobs: w.providerJobs ?? { checkAfterMs: 200, batchCollectMs: 500, batchCheckMs: 200 },
      ...(w.maxConcurrentActivities ? { maxConcurrentActivities: w.maxConcurrentActivities } : {}),
      ...(w.maxDetachedSteps !== undefined ? { maxDetachedSteps: w.maxDetachedSteps } : {}),
      ...(w.metrics ? { metrics: w.metrics } : {}),
      ...(w.detachAfterMs !== undefined ? { detachAfterMs: w.detachAfterMs } : {}),
    });
    const running = worker.run();
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      worker.shutdown();
      await running;
      await nativeConnection.close();
    };
    stops.push(stop);
    return { stop };
  };
  if (opts.worker !== false) await startWorker();

  const events = new RunEventHub(databaseUrl, silentLogger);
  const api: ApiServer = await startApiServer(
    {
      db,
      temporal,
      taskQueue,
      logger: silentLogger,
      models,
      storage,
      fileUrls,
      metricsToken,
      ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
      events,
      sseHeartbeatMs: opts.sseHeartbeatMs,
      orderConcurrency: opts.orderConcurrency,
      egress: opts.egress ?? TEST_EGRESS_POLICY,
      secretsKey,
      webhookRetry: opts.webhookRetry,
      loginThrottle: opts.loginThrottle,
      trustedProxyHops: opts.trustedProxyHops ?? 0,
      ...(opts.temporalUiUrl ? { temporalUiUrl: opts.temporalUiUrl } : {}),
      providerWebhooks: createProviders(opts.providers).webhooks,
    },
    0,
    '127.0.0.1',
  );

  const request = requestTo(api.url);

  return {
    url: api.url,
    events,
    storage,
    fileUrls,
    metricsToken,
    db,
    databaseUrl,
    temporal,
    temporalAddress,
    taskQueue,
    request,
    startWorker,
    gatewayServices: (extra = {}) => ({ db, temporal, taskQueue, logger: silentLogger, models, storage, fileUrls, events, ...extra }),
    async stop() {
      await api.close();
      await events.close();
      for (const stop of stops.reverse()) await stop();
      await connection.close();
      await db.destroy();
      await rm(storage.root, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  token: string;
  refreshToken: string;
  userId: string;
  email: string;
  workspaceId: string;
}

let counter = 0;
export async function registerUser(h: Harness, name = 'Tester'): Promise<TestUser> {
  const email = `user${Date.now()}${counter++}${randomBytes(2).toString('hex')}@example.com`;
  const res = await h.request('POST', '/v1/auth/register', { body: { email, password: 'correct horse battery', name } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const membership = await h.db
    .selectFrom('memberships')
    .select('workspace_id')
    .where('user_id', '=', res.body.user.id)
    .executeTakeFirstOrThrow();
  return {
    token: res.body.accessToken,
    refreshToken: res.body.refreshToken,
    userId: res.body.user.id,
    email,
    workspaceId: membership.workspace_id,
  };
}

export async function createApiKey(h: Harness, user: TestUser, workspaceId?: string): Promise<string> {
  const res = await h.request('POST', '/v1/api-keys', {
    token: user.token,
    body: { name: 'test key', ...(workspaceId ? { workspaceId } : {}) },
  });
  if (res.status !== 201) throw new Error(`api key failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.secret;
}

/**
 * Waits until the gateway has heard every change committed before this call. PostgreSQL delivers
 * notifications in commit order, so once a marker sent now has reached the gateway's listener (and its
 * watchers, KeptReads among them, have run), so has every announcement before it.
 */
export async function heardSoFar(h: Harness, ms = 5_000): Promise<void> {
  await h.events.listen();
  const marker = `test-marker-${randomBytes(4).toString('hex')}`;
  let stop: () => void = () => undefined;
  const heard = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not hear ${marker} within ${ms} ms`)), ms);
    stop = h.events.watchTables((table) => {
      if (table !== marker) return;
      clearTimeout(timer);
      resolve();
    });
  });
  try {
    await sql`SELECT pg_notify(${TABLE_CHANGES_CHANNEL}, ${marker})`.execute(h.db);
    await heard;
  } finally {
    stop();
  }
}

/** Repeats `act` until `done` holds for its answer or `ms` pass, and answers the last one (for the caller to assert on). */
export async function repeatUntil<T>(act: () => Promise<T>, done: (answer: T) => boolean, ms = 2_000): Promise<T> {
  const deadline = Date.now() + ms;
  let answer = await act();
  while (!done(answer) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    answer = await act();
  }
  return answer;
}

/** Polls the read model (never Temporal) until the run satisfies `done`, by default a terminal status. */
export async function waitForRun(
  h: Harness,
  token: string,
  runId: string,
  done: (run: any) => boolean = (r) => isTerminalRunStatus(r.status),
  timeoutMs = 45_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await h.request('GET', `/v1/runs/${runId}`, { token });
    last = res.body;
    if (res.status === 200 && done(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(last)?.slice(0, 500)}`);
}

/**
 * Waits for a workflow execution to close and answers its Temporal status (COMPLETED, FAILED, CANCELLED…)
 * with the run outcome it carried: its result, or the details of a Failed run's failure (a Canceled
 * execution carries none).
 */
export async function executionClosed(h: Harness, workflowId: string): Promise<{ status: string; outcome: any }> {
  const handle = h.temporal.workflow.getHandle(workflowId);
  let outcome: any;
  try {
    outcome = await handle.result();
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    outcome = (err.cause as { details?: unknown[] } | undefined)?.details?.[0];
  }
  return { status: (await handle.describe()).status.name, outcome };
}

/** Polls an order (read model only) until `done`, by default a settled status. */
export async function waitForOrder(
  h: Harness,
  token: string,
  orderId: string,
  done: (order: any) => boolean = (o) => ['completed', 'attention', 'failed', 'cancelled'].includes(o.status),
  timeoutMs = 90_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await h.request('GET', `/v1/orders/${orderId}`, { token });
    last = res.body;
    if (res.status === 200 && done(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`order ${orderId} did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(last)?.slice(0, 500)}`);
}

/** A real `atelier worker` process, as production runs it, on the harness's database and task queue. */
export function spawnAtelierWorker(h: Harness, localLatencyMs: number, env: Record<string, string> = {}): ChildProcess {
  return spawnAtelier('worker', {
    DATABASE_URL: h.databaseUrl,
    TEMPORAL_ADDRESS: h.temporalAddress,
    ATELIER_TASK_QUEUE: h.taskQueue,
    ATELIER_LOCAL_LATENCY_MS: String(localLatencyMs),
    LOG_LEVEL: 'warn',
    ...env,
  });
}

/**
 * A real `atelier worker` (spawnAtelierWorker) with its probe port, answered once its /readyz says 200: the
 * process and the base URL of its /metrics and /readyz.
 */
export async function startProbedWorker(
  h: Harness,
  localLatencyMs: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawnAtelierWorker(h, localLatencyMs, { ...env, ATELIER_WORKER_PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await waitFor('the worker', answersReady(url), 150_000, () => child.exitCode !== null).catch(async (err) => {
    await stopProcess(child);
    throw err;
  });
  return { child, url };
}

/** Stops a process the test spawned as an operator would: SIGTERM, then SIGKILL if it is still there 10 s later. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** `atelier <command>` in a process of its own, as an operator starts it; stderr is the test's unless `output` is 'pipe'. */
export function spawnAtelier(command: 'api' | 'worker', env: Record<string, string>, output: 'stderr' | 'pipe' = 'stderr'): ChildProcess {
  return spawn(process.execPath, atelierArgs(command), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: output === 'pipe' ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'ignore', 'inherit'],
  });
}

/** A produced artifact in `workspaceId`, written straight to the database (what a finished run leaves behind). */
export async function seedArtifact(h: Harness, workspaceId: string): Promise<string> {
  const id = `artifact-${randomBytes(8).toString('hex')}`;
  await h.db
    .insertInto('artifacts')
    .values({
      id,
      workspace_id: workspaceId,
      title: 'portrait',
      status: 'ready',
      artifact_class: 'visual',
      artifact_type: 'illustration',
      content: JSON.stringify({ type: 'image' }),
      qa: JSON.stringify({ status: 'passed', checks: [] }),
    } as never)
    .execute();
  return id;
}
