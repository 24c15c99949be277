/**
 * What the benchmark stands up, the way the test suite's global setup does: one Temporal dev server
 * (headless; in memory, or with BENCH_TEMPORAL_STORE=file a SQLite file in a temp folder; or with
 * BENCH_TEMPORAL_STORE=server the real Temporal Server, its persistence and SQL visibility on the bench's
 * PostgreSQL, as the production-shaped stack runs it) and one
 * PostgreSQL (embedded and ephemeral in the same temp folder, or a fresh database on DATABASE_URL), each
 * on a free port. Everything started is registered
 * with a Cleanup so it is stopped in reverse order, on success, on error and on Ctrl-C.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Db, connectDb, startEmbeddedPostgres } from '@atelier/db';
import { Client, Connection } from '@temporalio/client';
import { PROJECT_ROOT, temporalSettings } from '@atelier/cli/stack/paths';
import { freePort, spawnManaged, waitFor } from '@atelier/cli/stack/processes';
import {
  ensureTemporalServer,
  registerNamespace,
  setUpTemporalSchemas,
  startRealTemporalServer,
} from '@atelier/cli/stack/real-temporal-server';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { ensureSearchAttributes, startTemporalDevServer } from '@atelier/cli/stack/temporal-server';

export type Log = (message: string) => void;

export class Cleanup {
  private readonly steps: Array<{ name: string; run: () => Promise<void> }> = [];
  private running: Promise<void> | undefined;

  constructor(private readonly log: Log) {}

  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  /** Runs every registered stop once, newest first; a failing stop is logged and the rest still run. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        const timer = setTimeout(() => this.log(`still stopping ${step.name}...`), 10_000);
        try {
          await step.run();
        } catch (err) {
          this.log(`error while stopping ${step.name}: ${(err as Error).message}`);
        } finally {
          clearTimeout(timer);
        }
      }
    })();
    return this.running;
  }
}

/**
 * Raw SQL through a Kysely instance, for the few statements the typed builder cannot express
 * (CREATE DATABASE, pg_stat_database). The bench has no direct dependency on kysely or pg, so the
 * compiled query is spelled out; the PostgreSQL driver only reads `sql` and `parameters`.
 */
export async function rawQuery<R>(db: Db, text: string, parameters: unknown[] = []): Promise<R[]> {
  const compiled = {
    sql: text,
    parameters,
    query: { kind: 'RawNode', sqlFragments: [text], parameters: [] },
    queryId: { queryId: `bench-${randomBytes(4).toString('hex')}` },
  };
  const result = await db.executeQuery<R>(compiled as unknown as Parameters<Db['executeQuery']>[0]);
  return result.rows;
}

export interface Infra {
  temporalAddress: string;
  databaseUrl: string;
  tmpDir: string;
  /** 'embedded' when this process runs PostgreSQL (its CPU is then attributed), else 'external'. */
  postgres: 'embedded' | 'external';
}

/**
 * The dev server without --db-filename keeps everything in memory. startTemporalDevServer always
 * persists to a file, so this variant spawns the CLI with the same flags minus the file.
 */
async function startInMemoryTemporal(cliPath: string, cleanup: Cleanup): Promise<string> {
  const settings = temporalSettings();
  const port = await freePort();
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--ui-port',
    String(await freePort()),
    '--log-level',
    'warn',
    '--namespace',
    settings.namespace,
    ...Object.entries(settings.dynamicConfig).flatMap(([k, v]) => ['--dynamic-config-value', `${k}=${JSON.stringify(v)}`]),
    '--headless',
  ];
  const proc = spawnManaged(cliPath, args, () => undefined);
  cleanup.add('the Temporal dev server', () => proc.stop('SIGTERM', 15_000));
  const address = `127.0.0.1:${port}`;
  const exited = () => proc.child.exitCode !== null;
  const connection = await waitFor('the Temporal dev server', () => Connection.connect({ address, connectTimeout: 1_000 }), 60_000, exited);
  try {
    await waitFor(
      'the Temporal namespace',
      () => connection.workflowService.describeNamespace({ namespace: settings.namespace }),
      60_000,
      exited,
    );
    await ensureSearchAttributes(connection, settings.namespace);
  } finally {
    await connection.close();
  }
  return address;
}

/**
 * The real Temporal Server (built into .tools/ on first use) with its two databases on the bench's PostgreSQL
 * server, the namespace and search attributes registered through the operator API.
 */
async function startServerTemporal(cliPath: string, databaseUrl: string, tmpDir: string, cleanup: Cleanup, log: Log): Promise<string> {
  const release = await ensureTemporalServer(log);
  const url = new URL(databaseUrl);
  const pg = {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
  await setUpTemporalSchemas(release, pg, log);
  const server = await startRealTemporalServer({ release, pg, dir: path.join(tmpDir, 'temporal-server'), log: () => undefined });
  cleanup.add(`the Temporal Server ${release.version}`, () => server.stop());
  await registerNamespace(cliPath, server.address, temporalSettings().namespace);
  return server.address;
}

let checkoutCompiled = false;

/** Compiles this checkout when its sources changed (`npm run build`), once per bench: processes that run dist/ never run a stale build. */
export function compileCheckout(): void {
  if (checkoutCompiled) return;
  const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts/build.mjs'), '--if-stale'], { stdio: ['ignore', 2, 2] });
  if (built.status !== 0) throw new Error('npm run build failed');
  checkoutCompiled = true;
}

export type TemporalStore = 'file' | 'memory' | 'server';

/**
 * The namespace startInfra's Temporal serves, on every store (temporal/dev-server.json), so the one the benches'
 * workers and clients must name: read from that file rather than written again, so the two cannot drift apart.
 */
export const NAMESPACE = temporalSettings().namespace;

export async function startInfra(cleanup: Cleanup, log: Log, temporalStore: TemporalStore = 'file'): Promise<Infra> {
  const tmpDir = await mkdtemp(path.join(os.tmpdir(), 'atelier-bench-'));
  // As root the embedded PostgreSQL runs as the `postgres` user, which must be able to enter this folder.
  await chmod(tmpDir, 0o755);
  cleanup.add('the temp folder', () => rm(tmpDir, { recursive: true, force: true }));

  const postgres = (async (): Promise<{ url: string; kind: 'embedded' | 'external' }> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const pg = await startEmbeddedPostgres({
        dataDir: path.join(tmpDir, 'pg'),
        port: await freePort(),
        database: 'atelier',
        ephemeral: true,
      });
      cleanup.add('the embedded PostgreSQL', () => pg.stop());
      return { url: pg.url, kind: 'embedded' };
    }
    // An existing server: a throwaway database, dropped at the end, keeps its other databases untouched.
    const name = `atelier_bench_${randomBytes(5).toString('hex')}`;
    const admin = connectDb({ url: adminUrl, max: 1 });
    try {
      await rawQuery(admin, `CREATE DATABASE ${name}`);
    } finally {
      await admin.destroy();
    }
    cleanup.add(`the database ${name}`, async () => {
      const dropper = connectDb({ url: adminUrl, max: 1 });
      try {
        await rawQuery(dropper, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.destroy();
      }
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { url: url.toString(), kind: 'external' };
  })();

  const temporal = (async () => {
    const cliPath = await ensureTemporalCli(log);
    if (temporalStore === 'memory') return startInMemoryTemporal(cliPath, cleanup);
    if (temporalStore === 'server') return startServerTemporal(cliPath, (await postgres).url, tmpDir, cleanup, log);
    const server = await startTemporalDevServer({
      cliPath,
      dbFile: path.join(tmpDir, 'temporal', 'temporal.db'),
      port: await freePort(),
      uiPort: await freePort(),
      headless: true,
      log: () => undefined,
    });
    cleanup.add('the Temporal dev server', () => server.stop());
    return server.address;
  })();

  // Start both; if one fails, still wait for the other so that whatever it started is registered and stopped.
  const [t, p] = await Promise.allSettled([temporal, postgres]);
  if (t.status === 'rejected') throw t.reason;
  if (p.status === 'rejected') throw p.reason;
  return { temporalAddress: t.value, databaseUrl: p.value.url, tmpDir, postgres: p.value.kind };
}

/** A Temporal client of the bench's own, beside Atelier's, on a connection closed at cleanup. */
export async function benchTemporalClient(cleanup: Cleanup, infra: Infra, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address: infra.temporalAddress });
  cleanup.add('the Temporal client connection', () => connection.close());
  return new Client({ connection, namespace });
}

/** A small pool for the bench's own reads (the run watcher, its checks), closed at cleanup. */
export function benchDbPool(cleanup: Cleanup, infra: Infra): Db {
  const db = connectDb({ url: infra.databaseUrl, max: 3 });
  cleanup.add('the bench database pool', () => db.destroy());
  return db;
}

export const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));
