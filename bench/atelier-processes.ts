/**
 * Atelier as `npm start` runs it: a gateway (`atelier api`) and a worker (`atelier worker`), each a process
 * of its own, on the bench's Temporal and PostgreSQL. The bench talks to the gateway over HTTP like any
 * client, reads the read model through a pool of its own, and reads each process's memory from /proc.
 */
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { COMPILED_CLI, sourceCliArgs } from '@atelier/cli/stack/paths';
import { MALLOC_ENV, answersReady, freePort, spawnManaged, waitFor } from '@atelier/cli/stack/processes';
import { type Db, connectDb } from '@atelier/db';
import { generateFileSigningSecret } from '@atelier/storage/file-urls';
import { type Cleanup, type Infra, compileCheckout } from './infra';

export interface AtelierOptions {
  namespace: string;
  taskQueue: string;
  localLatencyMs: number;
  orderConcurrency?: number;
}

export interface AtelierProcesses {
  url: string;
  /** The bench's own pool on Atelier's database. */
  db: Db;
  gatewayPid: number;
  workerPid: number;
  /** The worker's probe server: /metrics (its own and the Temporal SDK's). */
  workerUrl: string;
  /** Resident memory of one of the processes, in MB (VmRSS). */
  rssMb(pid: number): Promise<number>;
}

/**
 * Node's arguments for one of Atelier's processes: the compiled build with plain node, as `npm start` and
 * production run it (built first when its sources changed), or with BENCH_ATELIER_BUILD=source the
 * TypeScript sources through tsx.
 */
export function atelierCliArgs(command: string): string[] {
  if (process.env.BENCH_ATELIER_BUILD === 'source') return sourceCliArgs(command);
  compileCheckout();
  return [COMPILED_CLI, command];
}

export async function startAtelierProcesses(cleanup: Cleanup, infra: Infra, opts: AtelierOptions): Promise<AtelierProcesses> {
  const [apiPort, workerPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    // As `npm start` and the image run them (processes.ts says why).
    ...MALLOC_ENV,
    ...process.env,
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_NAMESPACE: opts.namespace,
    ATELIER_TASK_QUEUE: opts.taskQueue,
    ATELIER_API_HOST: '127.0.0.1',
    ATELIER_API_PORT: String(apiPort),
    ATELIER_WORKER_PORT: String(workerPort),
    ATELIER_LOCAL_LATENCY_MS: String(opts.localLatencyMs),
    ...(opts.orderConcurrency ? { ATELIER_ORDER_CONCURRENCY: String(opts.orderConcurrency) } : {}),
    ATELIER_DATA_DIR: infra.tmpDir,
    ATELIER_STORAGE_DIR: `${infra.tmpDir}/storage`,
    ATELIER_FILE_SIGNING_SECRET: generateFileSigningSecret(),
    // The benches read no file URLs, so any origin will do.
    ATELIER_PUBLIC_URL: 'http://127.0.0.1',
    ATELIER_EGRESS_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: process.env.BENCH_ATELIER_LOG_LEVEL ?? 'error',
  };
  const log = (name: string) => (line: string) => process.stderr.write(`[${name}] ${line}\n`);
  // The worker first: it migrates the database, which the gateway then finds done.
  // BENCH_PROFILE_DIR=<dir> writes each process's V8 CPU profiles (one per thread) under <dir>/<process> when it stops (open in Chrome's DevTools).
  // With it, SIGUSR2 also writes a heap snapshot of the process there (bench/isolation.ts sends it).
  const profile = (name: string) => {
    const dir = process.env.BENCH_PROFILE_DIR && path.join(process.env.BENCH_PROFILE_DIR, name);
    if (dir) mkdirSync(dir, { recursive: true });
    return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`] : [];
  };
  const cli = atelierCliArgs;
  const worker = spawnManaged(process.execPath, [...profile('worker'), ...cli('worker')], log('worker'), env);
  cleanup.add('the Atelier worker process', () => worker.stop('SIGTERM', 20_000));
  const exited = (p: typeof worker) => () => p.child.exitCode !== null || p.child.signalCode !== null;
  await waitFor('the Atelier worker', answersReady(`http://127.0.0.1:${workerPort}`), 120_000, exited(worker));
  const gateway = spawnManaged(process.execPath, [...profile('gateway'), ...cli('api')], log('gateway'), env);
  cleanup.add('the Atelier gateway process', () => gateway.stop('SIGTERM', 20_000));
  const url = `http://127.0.0.1:${apiPort}`;
  await waitFor('the Atelier gateway', answersReady(url), 120_000, exited(gateway));
  const db = connectDb({ url: infra.databaseUrl, max: 4 });
  cleanup.add('the bench pool on the Atelier database', () => db.destroy());
  return {
    url,
    db,
    gatewayPid: gateway.child.pid!,
    workerPid: worker.child.pid!,
    workerUrl: `http://127.0.0.1:${workerPort}`,
    rssMb: async (pid) => {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kb = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? Number.NaN);
      return Math.round(kb / 1024);
    },
  };
}
