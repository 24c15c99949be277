/**
 * The stack the chaos scenario hurts, in one of two shapes:
 *
 * - `dev`: `npm start`'s shape. The Temporal dev server on a SQLite file, one gateway and one worker run from
 *   the sources.
 * - `production`: `npm run stack:production`'s shape. The real Temporal Server, its persistence and SQL
 *   visibility on the same PostgreSQL as Atelier's, the namespace and search attributes registered through the
 *   operator API, and several gateways and workers of the compiled build.
 *
 * Faults at a process aim at the first gateway and the first worker; the others keep serving, as the rest of
 * a fleet would. Temporal and PostgreSQL come back where they were (same ports, same files), as a restarted
 * server or pod does. Each Atelier process is restarted whenever it exits, and so is the real Temporal Server
 * if it gives up on its own (as a pod would be); those restarts are counted.
 */
import path from 'node:path';
import { freePort } from '@atelier/cli/stack/processes';
import {
  type RealTemporalServer,
  type TemporalServerPorts,
  ensureTemporalServer,
  registerNamespace,
  setUpTemporalSchemas,
  startRealTemporalServer,
} from '@atelier/cli/stack/real-temporal-server';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { type TemporalDevServer, startTemporalDevServer } from '@atelier/cli/stack/temporal-server';
import { temporalSettings } from '@atelier/cli/stack/paths';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@atelier/db';
import { generateSecretsKey } from '@atelier/engine/webhooks/index';
import { generateFileSigningSecret } from '@atelier/storage/file-urls';
import { SupervisedAtelier, killPostgres, sleep } from './chaos-faults';
import { compileCheckout } from './infra';

export type ChaosTopology = 'dev' | 'production';

export interface ChaosStackOptions {
  topology: ChaosTopology;
  /** Gateways and workers of the production shape (the dev shape has one of each). */
  gateways: number;
  workers: number;
  /** ATELIER_LOCAL_LATENCY_MS of the workers. */
  latencyMs: number;
  scratch: string;
  log: (line: string) => void;
}

export interface ChaosStack {
  /** One line: what runs where. */
  description: string;
  databaseUrl: string;
  /** PostgreSQL's data dir (its postmaster.pid names the process the PostgreSQL faults act on). */
  pgDir: string;
  gatewayUrls: string[];
  gateways: SupervisedAtelier[];
  workers: SupervisedAtelier[];
  /** Stops Temporal cleanly or SIGKILLs it, waits downMs, and starts it again where it was. */
  bounceTemporal(how: 'stop' | 'kill', downMs: number): Promise<void>;
  /** Times the real Temporal Server exited without being asked to and was started again. */
  temporalSelfExits(): number;
  /** PostgreSQL stopped cleanly, or its postmaster SIGKILLed (then its backends waited out). */
  stopPostgres(how: 'stop' | 'kill'): Promise<void>;
  startPostgres(): Promise<void>;
  stop(): Promise<void>;
}

export async function startChaosStack(o: ChaosStackOptions): Promise<ChaosStack> {
  const { log, scratch } = o;
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const production = o.topology === 'production';
    if (production) {
      compileCheckout();
    }
    const cliPath = await ensureTemporalCli(log);
    const pgPort = await freePort();
    const pgDir = path.join(scratch, 'pg');
    // PostgreSQL's own durability, not the tests' `ephemeral` (synchronous_commit=off): with that, a commit is
    // answered before its WAL is flushed, and the postmaster's SIGKILL lost runs the gateway had acknowledged
    // (5 of 240 in one bench run). A deployment keeps synchronous_commit on; so does `atelier dev`.
    const startPg = () => startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, database: 'atelier' });
    let pg: EmbeddedPostgresHandle | undefined = await startPg();
    stops.push(async () => pg?.stop());

    const temporal = production ? await realServer(cliPath, pgPort, scratch, log) : await devServer(cliPath, scratch);
    stops.push(() => temporal.stop());

    const gatewayPorts = await Promise.all(Array.from({ length: production ? o.gateways : 1 }, () => freePort()));
    const workerPorts = await Promise.all(Array.from({ length: production ? o.workers : 1 }, () => freePort()));
    const gatewayUrls = gatewayPorts.map((port) => `http://127.0.0.1:${port}`);
    const { OPENAI_API_KEY: _openai, ...inherited } = process.env;
    // What a deployment gives every gateway and worker alike; the gateway refuses to start without the first two.
    const common: NodeJS.ProcessEnv = {
      ...inherited,
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporalSettings().namespace,
      ATELIER_TASK_QUEUE: 'chaos',
      ATELIER_DATA_DIR: scratch,
      ATELIER_STORAGE_DIR: path.join(scratch, 'storage'),
      ATELIER_FILE_SIGNING_SECRET: generateFileSigningSecret(),
      ATELIER_PUBLIC_URL: gatewayUrls[0],
      ATELIER_SECRETS_KEY: generateSecretsKey(),
    };
    const several = (role: string, i: number, n: number) => (n > 1 ? `${role}-${i + 1}` : role);
    const workers = workerPorts.map(
      (port, i) =>
        new SupervisedAtelier(
          'worker',
          {
            ...common,
            ATELIER_LOCAL_LATENCY_MS: String(o.latencyMs),
            ATELIER_WORKER_PORT: String(port),
            LOG_LEVEL: process.env.CHAOS_WORKER_LOG ?? 'warn',
          },
          `http://127.0.0.1:${port}/healthz`,
          scratch,
          log,
          { name: several('worker', i, workerPorts.length), compiled: production },
        ),
    );
    const gateways = gatewayPorts.map(
      (port, i) =>
        new SupervisedAtelier(
          'api',
          { ...common, ATELIER_API_HOST: '127.0.0.1', ATELIER_API_PORT: String(port), LOG_LEVEL: process.env.CHAOS_GATEWAY_LOG ?? 'warn' },
          `${gatewayUrls[i]}/readyz`,
          scratch,
          log,
          { name: several('gateway', i, gatewayPorts.length), compiled: production },
        ),
    );
    for (const p of [...workers, ...gateways]) {
      stops.push(() => p.stop());
      p.start();
    }
    for (const p of [...workers, ...gateways]) {
      if (!(await p.waitUp(120_000))) throw new Error(`${p.name} did not come up:\n${p.tail()}`);
    }

    const description = production
      ? `Temporal Server ${temporal.version} on PostgreSQL :${pgPort} (persistence and SQL visibility), ${gateways.length} gateways, ${workers.length} workers (compiled)`
      : `Temporal dev server, PostgreSQL :${pgPort}, 1 gateway, 1 worker (sources)`;
    return {
      description,
      databaseUrl: pg.url,
      pgDir,
      gatewayUrls,
      gateways,
      workers,
      bounceTemporal: (how, downMs) => temporal.bounce(how, downMs),
      temporalSelfExits: () => temporal.selfExits(),
      async stopPostgres(how) {
        if (how === 'stop') await pg?.stop();
        else await killPostgres(pgDir);
        pg = undefined;
      },
      async startPostgres() {
        pg = await startPg();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

interface RestartableTemporal {
  address: string;
  version: string;
  selfExits(): number;
  bounce(how: 'stop' | 'kill', downMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** The dev server on a SQLite file, on fixed ports so it comes back where it was. */
async function devServer(cliPath: string, scratch: string): Promise<RestartableTemporal> {
  const [port, uiPort] = [await freePort(), await freePort()];
  const start = () =>
    startTemporalDevServer({ cliPath, dbFile: path.join(scratch, 'temporal.db'), port, uiPort, headless: true, log: () => undefined });
  let server: TemporalDevServer | undefined = await start();
  return {
    address: server.address,
    version: 'dev server',
    selfExits: () => 0,
    async bounce(how, downMs) {
      await (how === 'stop' ? server?.stop() : server?.kill());
      server = undefined;
      await sleep(downMs);
      server = await start();
    },
    stop: async () => server?.stop(),
  };
}

/**
 * The real Temporal Server on the stack's PostgreSQL. It is watched: when it exits without being asked to
 * (it may give up while PostgreSQL is away), it is started again every 2 s until it stays up, as its pod's
 * restart policy would.
 */
async function realServer(cliPath: string, pgPort: number, scratch: string, log: (line: string) => void): Promise<RestartableTemporal> {
  const release = await ensureTemporalServer(log);
  const sql = { host: '127.0.0.1', port: pgPort, user: 'postgres', password: 'postgres' };
  await setUpTemporalSchemas(release, sql, log);
  let ports: TemporalServerPorts | undefined;
  let server: RealTemporalServer | undefined;
  let down = false;
  let stopped = false;
  let selfExits = 0;
  const start = async () => {
    server = await startRealTemporalServer({ release, pg: sql, dir: path.join(scratch, 'temporal'), ports, log: () => undefined });
    ports = server.ports;
    const current = server;
    void current.exited.then(() => {
      if (down || stopped || server !== current) return;
      selfExits += 1;
      server = undefined;
      log('the Temporal Server exited on its own; starting it again');
      void keepStarting();
    });
  };
  const keepStarting = async () => {
    while (!down && !stopped && !server) {
      try {
        await start();
        log('the Temporal Server is back');
      } catch (err) {
        log(`the Temporal Server did not start (${(err as Error).message.split('\n')[0]}); again in 2 s`);
        await sleep(2_000);
      }
    }
  };
  await start();
  const address = server!.address;
  await registerNamespace(cliPath, address, temporalSettings().namespace);
  return {
    address,
    version: release.version,
    selfExits: () => selfExits,
    async bounce(how, downMs) {
      down = true;
      await (how === 'stop' ? server?.stop() : server?.kill());
      server = undefined;
      await sleep(downMs);
      down = false;
      await keepStarting();
    },
    async stop() {
      stopped = true;
      await server?.stop();
    },
  };
}
