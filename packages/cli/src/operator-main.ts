/**
 * The operator commands of `atelier`: `dev` runs everything on embedded defaults; `api` and `worker` are the
 * production processes; the rest are operator tools.
 */
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { readBuiltinWorkflows } from '@atelier/catalog';
import { connectDb, migrateToLatest } from '@atelier/db';
import { grantOperatorCommand, listOperatorsCommand, revokeOperatorCommand } from './commands/operators.js';
import { finalizeRunCommand, reconcileRunsCommand, resetRunCommand } from './commands/runs.js';
import { type AtelierConfig, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { DEV_SUPERVISED_VARIABLE, devBanner, startDevStack } from './stack/dev-stack.js';
import { freePort } from './stack/processes.js';
import { productionBanner, startProductionStack } from './stack/production-stack.js';
import { startStack } from './stack/stack.js';
import { exitWithParent } from './stack/supervisor.js';

const USAGE = `usage: atelier <command>

  dev                    start Temporal (dev server), PostgreSQL (embedded), and a worker and the API as processes of their own
  api                    start the API gateway (needs DATABASE_URL and TEMPORAL_ADDRESS)
  worker                 start a worker (needs DATABASE_URL and TEMPORAL_ADDRESS)
  migrate                apply database migrations
  stack production [--fresh] [--gateways N] [--workers N]
                         the real Temporal Server on PostgreSQL, 2 gateways and 3 workers (docs/operations.md)
  workflows validate     check every built-in workflow definition file
  runs finalize <id>     write the artifact and terminal status of a run whose steps all completed
  runs reset <id> [why]  reset the run's workflow to its last completed workflow task (replays on current code)
  runs reconcile [--dry-run]  settle runs and orders stuck without a live workflow (one reconciler pass)
  operators grant <email>   make a registered user a platform operator (the /v1/ops role)
  operators revoke <email>  take the platform operator role away
  operators list            list platform operators

Settings come from the environment; see docs/operations.md.`;

function embeddedDatabaseUrl(config: AtelierConfig): string {
  return config.databaseUrl ?? `postgres://postgres:postgres@127.0.0.1:${config.embeddedPgPort}/atelier`;
}

async function serve(config: AtelierConfig, given: { api: boolean; worker: boolean }): Promise<number> {
  const logger = createLogger(config.logLevel);
  // A worker with a probe port also serves the Temporal SDK's metrics (task slots, poll latency, sticky
  // cache) on its /metrics: the SDK exports them on a loopback port of its own, which /metrics appends.
  const temporalMetricsAddress = given.worker && (config.workerHttpPort ?? 0) > 0 ? `127.0.0.1:${await freePort()}` : undefined;
  const parts = {
    ...given,
    embedded: false,
    devSupervised: process.env[DEV_SUPERVISED_VARIABLE] === '1',
    ...(temporalMetricsAddress ? { temporalMetricsUrl: `http://${temporalMetricsAddress}/metrics` } : {}),
  };
  // The SDK's native runtime, loaded by the processes that talk to Temporal through it (not `atelier dev`).
  const { Runtime, makeTelemetryFilterString } = await import('@temporalio/worker');
  Runtime.install({
    logger: {
      log: () => undefined,
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (m, a) => logger.warn(a ?? {}, m),
      error: (m, a) => logger.error(a ?? {}, m),
    },
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      ...(temporalMetricsAddress ? { metrics: { prometheus: { bindAddress: temporalMetricsAddress } } } : {}),
    },
    // Shutdown order is ours (stack.stop): the SDK must not stop workers on its own when a signal arrives.
    shutdownSignals: [],
  });
  // A child of `atelier dev` whose parent was SIGKILLed stops too, rather than hold the stack's ports. Watched
  // from the start: a parent gone while this process was still starting leaves it with another parent already.
  if (parts.devSupervised) exitWithParent(() => process.kill(process.pid, 'SIGTERM'));
  return runStack((stopRequested) => startStack(config, { ...parts, stopRequested }, logger), { say: (line) => logger.info(line) });
}

/** `npm start`: embedded Temporal and PostgreSQL here, the gateway and the worker as supervised processes (dev-stack.ts). */
async function serveDev(config: AtelierConfig): Promise<number> {
  const logger = createLogger(config.logLevel);
  return runStack((stopRequested) => startDevStack(config, logger, stopRequested), { banner: (stack) => devBanner(stack, config) });
}

/** `atelier stack production`: the production-shaped stack on one machine (production-stack.ts). */
async function serveProductionStack(config: AtelierConfig, args: string[]): Promise<number> {
  const logger = createLogger(config.logLevel);
  const count = (flag: string, fallback: number) => {
    const at = args.indexOf(flag);
    const n = at >= 0 ? Number(args[at + 1]) : fallback;
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} wants a whole number of at least 1`);
    return n;
  };
  const dir = path.join(config.dataDir, 'production-stack');
  const options = { dir, fresh: args.includes('--fresh'), gateways: count('--gateways', 2), workers: count('--workers', 3) };
  return runStack((stopRequested) => startProductionStack(config, { ...options, stopRequested }, logger), {
    banner: (stack) => productionBanner(stack, dir),
  });
}

/**
 * Starts a stack, says so (its banner, for the stacks a developer starts) and runs it until a stop signal. The
 * signal is heard from the start, and `stopRequested` aborts on it: during the start it calls the start off, which
 * stops what has started (PostgreSQL, Temporal, the gateways and workers), where Node's default would end this
 * process alone and leave them holding the data dir.
 */
async function runStack<S extends { stop(): Promise<void> }>(
  start: (stopRequested: AbortSignal) => Promise<S>,
  { banner, say = console.log }: { banner?: (stack: S) => string; say?: (line: string) => void },
): Promise<number> {
  const stopping = new AbortController();
  const stopSignal = untilStopSignal().then(() => stopping.abort());
  let stack: S;
  try {
    stack = await start(stopping.signal);
  } catch (err) {
    if (!stopping.signal.aborted) throw err;
    say('stopped while starting');
    return 0;
  }
  if (banner) say(banner(stack));
  await stopSignal;
  say('stopping...');
  await stack.stop();
  return 0;
}

/**
 * Resolves on the first SIGINT or SIGTERM. Ctrl-C reaches this process twice (from the terminal's
 * process group and forwarded by the npm bootstrap), so a repeat within two seconds is ignored; a later
 * one forces an exit for a shutdown that hangs.
 */
function untilStopSignal(): Promise<void> {
  return new Promise((resolve) => {
    let firstAt = 0;
    const onSignal = () => {
      if (firstAt === 0) {
        firstAt = Date.now();
        resolve();
      } else if (Date.now() - firstAt > 2_000) {
        console.error('forced exit');
        process.exit(130);
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

async function withDb<T>(config: AtelierConfig, fn: (db: ReturnType<typeof connectDb>, url: string) => Promise<T>): Promise<T> {
  const url = embeddedDatabaseUrl(config);
  const db = connectDb({ url, max: 2 });
  try {
    return await fn(db, url);
  } finally {
    await db.destroy();
  }
}

async function withTemporal<T>(config: AtelierConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: config.temporalAddress ?? `127.0.0.1:${config.temporalPort}` });
  try {
    return await fn(new Client({ connection, namespace: config.namespace }));
  } finally {
    await connection.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, sub, arg] = argv;
  const config = loadConfig();
  switch (command) {
    case 'dev':
      return serveDev(config);
    case 'api':
      return serve(config, { api: true, worker: false });
    case 'worker':
      return serve(config, { api: false, worker: true });
    case 'stack':
      if (sub === 'production') return serveProductionStack(config, argv.slice(2));
      break;
    case 'migrate':
      return withDb(config, async (db) => {
        const applied = await migrateToLatest(db);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
        return 0;
      });
    case 'workflows': {
      if (sub !== 'validate') break;
      const { workflows, problems } = readBuiltinWorkflows();
      for (const w of workflows) console.log(`ok    ${w.file}`);
      for (const p of problems) console.log(`FAIL  ${p.file}\n      - ${p.errors.join('\n      - ')}`);
      return problems.length ? 1 : 0;
    }
    case 'operators': {
      if (sub === 'list') return withDb(config, (db) => listOperatorsCommand(db));
      if (!arg) break;
      if (sub === 'grant') return withDb(config, (db) => grantOperatorCommand(db, arg));
      if (sub === 'revoke') return withDb(config, (db) => revokeOperatorCommand(db, arg));
      break;
    }
    case 'runs': {
      if (sub === 'reconcile')
        return withDb(config, (db) =>
          withTemporal(config, (t) => reconcileRunsCommand(db, t, { dryRun: argv.slice(2).includes('--dry-run') })),
        );
      if (!arg) break;
      if (sub === 'finalize') return withDb(config, (db) => withTemporal(config, (t) => finalizeRunCommand(db, t, arg)));
      if (sub === 'reset') return withTemporal(config, (t) => resetRunCommand(t, arg, argv.slice(3).join(' ')));
      break;
    }
  }
  console.error(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 64;
}
