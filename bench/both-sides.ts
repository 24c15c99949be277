import type { Client } from '@temporalio/client';
import type { Db } from '@atelier/db';
import type { AtelierOptions } from './atelier-processes';
import { Meter } from './diagnostics';
import { type Sides, bundleBaseline, createApiKey, installRuntime, startAtelier, startBaselineWorkerConnected } from './harness';
import { type Cleanup, type Infra, type Log, type TemporalStore, benchDbPool, benchTemporalClient, startInfra } from './infra';
import { RunWatcher } from './run-watcher';

export interface BothSides {
  infra: Infra;
  atelier: Awaited<ReturnType<typeof startAtelier>>;
  client: Client;
  benchDb: Db;
}

/** The baseline's side: its workflows' file, its queue and the activities its worker runs. */
export interface BareSide {
  workflowsPath: string;
  taskQueue: string;
  activities: object;
  /** Activity slots, when the baseline needs more than createRunWorker's for what it waits on. */
  maxActivities?: number;
}

/**
 * What a comparison of Atelier with bare Temporal stands up, in the order that overlaps the slow parts: the
 * baseline's bundle while the servers start, then Atelier's stack, the baseline worker, a Temporal client and
 * the bench's own pool, all stopped by `cleanup`.
 */
export async function startBothSides(
  cleanup: Cleanup,
  log: Log,
  opts: { temporalStore: TemporalStore; atelier: AtelierOptions; bare: BareSide },
): Promise<BothSides> {
  installRuntime();
  const bundling = bundleBaseline(opts.bare.workflowsPath, log);
  const infra = await startInfra(cleanup, log, opts.temporalStore);
  log(`Temporal at ${infra.temporalAddress}; PostgreSQL (${infra.postgres}) ready`);
  const atelier = await startAtelier(cleanup, infra, opts.atelier);
  const { workflowsPath: _, ...bare } = opts.bare;
  await startBaselineWorkerConnected(cleanup, infra, { namespace: opts.atelier.namespace, workflowBundle: await bundling, ...bare });
  const client = await benchTemporalClient(cleanup, infra, opts.atelier.namespace);
  return { infra, atelier, client, benchDb: benchDbPool(cleanup, infra) };
}

/**
 * The sides the targets measure (harness.ts `Sides`): an API key on the gateway, a watch of the read model
 * and a meter of both. Runs followed over their event streams need no watch until the creation phase drains.
 */
export async function comparedSides(
  cleanup: Cleanup,
  { infra, atelier, client, benchDb }: BothSides,
  opts: Pick<Sides, 'bareQueue' | 'runTimeoutMs' | 'log' | 'aborted' | 'follow'> & { diagnostics: boolean },
): Promise<Sides> {
  const { diagnostics, ...rest } = opts;
  const watcher = await RunWatcher.start(cleanup, benchDb, infra.databaseUrl, opts.log, { listen: opts.follow !== 'stream' });
  const own = { queries: 0 };
  return {
    ...rest,
    infra,
    client,
    atelierUrl: atelier.url,
    apiKey: await createApiKey(atelier.url),
    watcher,
    benchDb,
    meter: new Meter(infra, diagnostics ? benchDb : undefined, () => watcher.queries + own.queries, [atelier.db, benchDb]),
    own,
  };
}
