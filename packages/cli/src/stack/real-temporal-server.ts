import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { TOOLS_DIR, temporalSettings } from './paths.js';
import { spawnManaged, waitFor } from './processes.js';

const run = promisify(execFile);

/** What running the real server takes: its binary, the schema tool, and the schema files of the same release. */
export interface TemporalServerRelease {
  version: string;
  server: string;
  sqlTool: string;
  /** The release's schema/postgresql/v12 folder (temporal/ and visibility/ under it). */
  schemaDir: string;
}

/**
 * The pinned Temporal Server release (temporal/dev-server.json `server`): TEMPORAL_SERVER_PATH and
 * TEMPORAL_SQL_TOOL_PATH name existing binaries (TEMPORAL_SERVER_SCHEMA_DIR the schema files), else the copy
 * cached in `.tools/temporal-server-<version>/`, else `go install` builds it there: about 10 minutes on two
 * cores the first time, which is why it is cached beside the project rather than in a scratch folder.
 */
export async function ensureTemporalServer(log: (line: string) => void = () => undefined): Promise<TemporalServerRelease> {
  const { goModule, version } = temporalSettings().server;
  const home = path.join(TOOLS_DIR, `temporal-server-${version.replace(/^v/, '')}`);
  const bin = path.join(home, 'bin');
  const wanted = {
    server: process.env.TEMPORAL_SERVER_PATH || path.join(bin, 'temporal-server'),
    sqlTool: process.env.TEMPORAL_SQL_TOOL_PATH || path.join(bin, 'temporal-sql-tool'),
  };
  for (const [setting, file] of [
    ['TEMPORAL_SERVER_PATH', process.env.TEMPORAL_SERVER_PATH],
    ['TEMPORAL_SQL_TOOL_PATH', process.env.TEMPORAL_SQL_TOOL_PATH],
  ] as const) {
    if (file && !existsSync(file)) throw new Error(`${setting} points at ${file}, which does not exist`);
  }
  // `go install` names a binary after its package folder: cmd/server and cmd/tools/sql.
  const builds = [
    { target: wanted.server, pkg: `${goModule}/cmd/server`, built: 'server' },
    { target: wanted.sqlTool, pkg: `${goModule}/cmd/tools/sql`, built: 'sql' },
  ].filter((b) => !existsSync(b.target));
  if (builds.length) {
    await mkdir(bin, { recursive: true });
    const started = Date.now();
    log(
      `building Temporal Server ${version} (${builds.map((b) => b.built).join(', ')}) with go install into ${bin}; the server takes about 10 minutes the first time`,
    );
    await run('go', ['install', ...builds.map((b) => `${b.pkg}@${version}`)], {
      env: { ...process.env, GOBIN: bin, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      throw new Error(
        `Temporal Server ${version} is not in ${bin} and building it needs Go (go on PATH); or set TEMPORAL_SERVER_PATH and TEMPORAL_SQL_TOOL_PATH to existing binaries`,
      );
    });
    for (const b of builds) await rename(path.join(bin, b.built), b.target);
    log(`built Temporal Server ${version} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const schemaDir = process.env.TEMPORAL_SERVER_SCHEMA_DIR || path.join(home, 'schema', 'postgresql', 'v12');
  if (!existsSync(path.join(schemaDir, 'temporal', 'versioned'))) {
    if (process.env.TEMPORAL_SERVER_SCHEMA_DIR)
      throw new Error(`TEMPORAL_SERVER_SCHEMA_DIR (${schemaDir}) has no temporal/versioned folder`);
    // The schema ships in the module's source, which `go mod download` fetches (or finds in the module cache).
    const { stdout } = await run('go', ['mod', 'download', '-json', `${goModule}@${version}`], { maxBuffer: 16 * 1024 * 1024 });
    const source = (JSON.parse(stdout) as { Dir: string }).Dir;
    await cp(path.join(source, 'schema', 'postgresql', 'v12'), schemaDir, { recursive: true });
    // The module cache is read-only, and so would the copy be: `rm -rf .tools` would then fail for a non-root user.
    await run('chmod', ['-R', 'u+w', schemaDir]);
  }
  return { version, ...wanted, schemaDir };
}

export interface SqlDatabase {
  host: string;
  port: number;
  user: string;
  password: string;
}

/**
 * Creates (when missing) and brings up to the release's schema the persistence and visibility databases,
 * with the release's own `temporal-sql-tool`, as an operator installing or upgrading a cluster would.
 */
export async function setUpTemporalSchemas(release: TemporalServerRelease, pg: SqlDatabase, log: (line: string) => void): Promise<void> {
  for (const [database, schema] of [
    ['temporal', 'temporal'],
    ['temporal_visibility', 'visibility'],
  ] as const) {
    const tool = (...args: string[]) =>
      run(
        release.sqlTool,
        ['--plugin', 'postgres12', '--ep', pg.host, '-p', String(pg.port), '-u', pg.user, '--pw', pg.password, '--db', database, ...args],
        { maxBuffer: 16 * 1024 * 1024 },
      );
    // All three are idempotent in the tool itself (an existing database is kept; setup-schema leaves a schema
    // past 0.0 alone; update-schema applies only the versions above the current one): a restart runs them again.
    await tool('create-database');
    await tool('setup-schema', '-v', '0.0');
    await tool('update-schema', '-d', path.join(release.schemaDir, schema, 'versioned'));
    log(`Temporal database ${database}: schema at release ${release.version}`);
  }
}

export interface RealTemporalServer {
  address: string;
  metricsUrl: string;
  configFile: string;
  /** Every port it listens on: give them back to start it again where it was (its membership rows name them). */
  ports: TemporalServerPorts;
  stop(): Promise<void>;
  /** SIGKILL, no clean shutdown: what a crash or an OOM kill does to it (the chaos bench starts it again on its ports). */
  kill(): Promise<void>;
  /** Settles when the process has exited, whoever stopped it. */
  exited: Promise<void>;
}

/** The dev server's `--dynamic-config-value key=value` pairs as the server's dynamic config file, unconstrained. */
export function dynamicConfigYaml(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key}:\n  - value: ${JSON.stringify(value)}\n    constraints: {}\n`)
    .join('');
}

export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  metrics: number;
}

/** development-postgres12.yaml of the release, on our PostgreSQL and ports, without archival. */
function serverConfigYaml(pg: SqlDatabase, ports: TemporalServerPorts, dynamicConfigFile: string): string {
  const store = (database: string, maxConns: number) => `      sql:
        pluginName: "postgres12"
        databaseName: "${database}"
        connectAddr: "${pg.host}:${pg.port}"
        connectProtocol: "tcp"
        user: ${JSON.stringify(pg.user)}
        password: ${JSON.stringify(pg.password)}
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
  const service = (grpc: number, membership: number, extra = '') => `    rpc:
      grpcPort: ${grpc}
      membershipPort: ${membership}
      bindOnLocalHost: true${extra}`;
  return `log:
  stdout: true
  level: warn

persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: 4
  datastores:
    postgres-default:
${store('temporal', 20)}
    postgres-visibility:
${store('temporal_visibility', 10)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  metrics:
    prometheus:
      framework: "tally"
      timerType: "histogram"
      listenAddress: "127.0.0.1:${ports.metrics}"

services:
  frontend:
${service(ports.frontend, ports.frontendMembership, `\n      httpPort: ${ports.frontendHttp}`)}
  matching:
${service(ports.matching, ports.matchingMembership)}
  history:
${service(ports.history, ports.historyMembership)}
  worker:
${service(ports.worker, ports.workerMembership)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${ports.frontend}"

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: ${JSON.stringify(dynamicConfigFile)}
  pollInterval: "10s"
`;
}

export interface RealServerOptions {
  release: TemporalServerRelease;
  pg: SqlDatabase;
  /** Where the config files go. */
  dir: string;
  /** The frontend's port; a free one when unset. */
  port?: number;
  /** Every port, as a previous start's handle gave them (the frontend's then comes from here too). */
  ports?: TemporalServerPorts;
  log: (line: string) => void;
}

/**
 * A free loopback port that fits PostgreSQL's smallint: the server records each service's membership port in
 * cluster_membership.rpc_port (SMALLINT), and stops at start when one is above 32767, which every port the
 * kernel picks on Linux is (its ephemeral range starts at 32768).
 */
async function freePortBelowSmallint(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port)) continue;
    const open = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (open) return port;
  }
  throw new Error('no free port between 20000 and 32000 for the Temporal server');
}

/** Starts `temporal-server start` (all four services in one process) and waits until its frontend answers. */
export async function startRealTemporalServer(opts: RealServerOptions): Promise<RealTemporalServer> {
  await mkdir(opts.dir, { recursive: true });
  const taken = new Set<number>();
  const free = async () => {
    const port = await freePortBelowSmallint(taken);
    taken.add(port);
    return port;
  };
  const ports: TemporalServerPorts = opts.ports ?? {
    frontend: opts.port ?? (await free()),
    frontendHttp: await free(),
    frontendMembership: await free(),
    history: await free(),
    historyMembership: await free(),
    matching: await free(),
    matchingMembership: await free(),
    worker: await free(),
    workerMembership: await free(),
    metrics: await free(),
  };
  const dynamicConfigFile = path.join(opts.dir, 'dynamicconfig.yaml');
  const configFile = path.join(opts.dir, 'config.yaml');
  await writeFile(dynamicConfigFile, dynamicConfigYaml(temporalSettings().dynamicConfig));
  await writeFile(configFile, serverConfigYaml(opts.pg, ports, dynamicConfigFile));
  // The last lines it wrote, for the error when it stops before it is ready (a config it refuses, a port taken).
  const recent: string[] = [];
  const proc = spawnManaged(opts.release.server, ['--config-file', configFile, '--allow-no-auth', 'start'], (line) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    opts.log(line);
  });
  const address = `127.0.0.1:${ports.frontend}`;
  const exited = () => proc.child.exitCode !== null;
  try {
    const connection = await waitFor('the Temporal server', () => Connection.connect({ address, connectTimeout: 1_000 }), 120_000, exited);
    try {
      // The frontend answers before the system namespace's workers are up; namespace calls need them.
      await waitFor(
        'the Temporal system namespace',
        () => connection.workflowService.describeNamespace({ namespace: 'temporal-system' }),
        120_000,
        exited,
      );
    } finally {
      await connection.close();
    }
  } catch (err) {
    await proc.stop('SIGKILL');
    throw new Error(`${(err as Error).message}; its last output:\n${recent.join('\n')}`, { cause: err });
  }
  return {
    address,
    metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics`,
    configFile,
    ports,
    stop: () => proc.stop('SIGTERM', 15_000),
    kill: () => proc.stop('SIGKILL'),
    exited: new Promise<void>((resolve) => {
      if (exited()) resolve();
      else proc.child.once('exit', () => resolve());
    }),
  };
}

/**
 * Registers the namespace and Atelier's search attributes through the operator API with the `temporal` CLI,
 * the commands infra/README.md gives for a production cluster (the gateway's ensureSearchAttributes then finds
 * them). Each is skipped when already there.
 */
export async function registerNamespace(cliPath: string, address: string, namespace: string, retention = '72h'): Promise<void> {
  const cli = (...args: string[]) => run(cliPath, [...args, '--address', address], { maxBuffer: 16 * 1024 * 1024 });
  const described = await cli('operator', 'namespace', 'describe', '--namespace', namespace).then(
    () => true,
    () => false,
  );
  if (!described) await cli('operator', 'namespace', 'create', '--namespace', namespace, '--retention', retention);
  // A namespace just created reaches the frontend's namespace cache within seconds (10 s refresh); until
  // then the search attribute calls answer that it is not found.
  const { stdout } = await waitFor(
    `namespace ${namespace} in the frontend's cache`,
    () => cli('operator', 'search-attribute', 'list', '--namespace', namespace, '-o', 'json'),
    60_000,
  );
  const present = JSON.stringify(JSON.parse(stdout || '{}'));
  for (const [name, type] of Object.entries(temporalSettings().searchAttributes)) {
    if (present.includes(`"${name}"`)) continue;
    await waitFor(
      `search attribute ${name}`,
      () => cli('operator', 'search-attribute', 'create', '--namespace', namespace, '--name', name, '--type', type),
      60_000,
    );
  }
}
