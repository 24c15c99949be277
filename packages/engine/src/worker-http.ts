import { type Server, createServer } from 'node:http';
import type { Worker } from '@temporalio/worker';
import { type Db, pingDb } from '@atelier/db';
import type { NondeterminismStatus } from './nondeterminism.js';

export interface WorkerHttpOptions {
  port: number;
  host?: string;
  worker: Pick<Worker, 'getState'>;
  db: Db;
  /** Extra routes served on the same port (the worker's /metrics). */
  routes?: Record<string, () => Promise<{ status: number; type: string; body: string }>>;
  /** The worker's nondeterminism errors (NondeterminismWatch): while one is recent the worker is not ready. */
  nondeterminism?: { status(): NondeterminismStatus };
}

/**
 * A worker has no API, so it gets a small port of its own for probes: /healthz (the process is alive)
 * and /readyz (it is polling Temporal, can reach PostgreSQL, and has met no nondeterminism error lately;
 * 503 otherwise). The last is not about this worker's health: it stops a rollout of workflow code that
 * cannot replay the runs in flight, while the worker keeps polling (docs/operations.md, Nondeterminism).
 */
export async function startWorkerHttp(opts: WorkerHttpOptions): Promise<{ port: number; close(): Promise<void> }> {
  const readiness = async () => {
    const polling = opts.worker.getState() === 'RUNNING';
    const database = await Promise.race([
      pingDb(opts.db, 2_000).then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref()),
    ]);
    const nondeterminism = opts.nondeterminism?.status();
    return {
      ready: polling && database && !nondeterminism?.recent,
      checks: { worker: opts.worker.getState(), database: database ? 'ok' : 'unreachable' },
      ...(nondeterminism ? { nondeterminism } : {}),
    };
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const answer = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, ...(status === 503 ? { 'retry-after': '5' } : {}) });
      res.end(body);
    };
    const handle = async () => {
      if (path === '/healthz') return answer(200, 'application/json', JSON.stringify({ ok: true }));
      if (path === '/readyz') {
        const r = await readiness();
        return answer(r.ready ? 200 : 503, 'application/json', JSON.stringify(r));
      }
      const route = opts.routes?.[path];
      if (route) {
        const r = await route();
        return answer(r.status, r.type, r.body);
      }
      return answer(404, 'application/json', JSON.stringify({ detail: `no route for ${path}` }));
    };
    handle().catch(() => answer(500, 'application/json', JSON.stringify({ detail: 'internal error' })));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
