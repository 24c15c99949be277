import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { connectDb, migrateToLatest, startEmbeddedPostgres, syncBuiltinWorkflows } from '@atelier/db';
import { bundleRunWorkflows } from '@atelier/engine/worker';
import { freePort } from '@atelier/cli/stack/processes';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { startTemporalDevServer } from '@atelier/cli/stack/temporal-server';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    pgAdminUrl: string;
    templateDatabase: string;
    workflowBundlePath: string;
  }
}

/**
 * One real Temporal dev server (or ATELIER_TEST_TEMPORAL_ADDRESS) and one real PostgreSQL for the whole suite (DATABASE_URL, when set,
 * replaces the embedded one). Each test file then gets its own database cloned from a migrated
 * template, its own task queue, worker and gateway, so files run in parallel without sharing state.
 */
export default async function setup(project: TestProject) {
  const scratch = path.join(PROJECT_ROOT, '.test-data', String(process.pid));
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  const stops: Array<() => Promise<void>> = [];

  // ATELIER_TEST_TEMPORAL_ADDRESS runs the files against a Temporal of one's own, such as the real server of
  // `atelier stack production` (its namespace and search attributes registered); the dev server otherwise.
  let temporalAddress = process.env.ATELIER_TEST_TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const cliPath = await ensureTemporalCli((line) => console.log(line));
    const temporal = await startTemporalDevServer({
      cliPath,
      dbFile: path.join(scratch, 'temporal.db'),
      port: await freePort(),
      uiPort: await freePort(),
      headless: true,
      log: () => undefined,
    });
    stops.push(() => temporal.stop());
    temporalAddress = temporal.address;
  }

  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: path.join(scratch, 'pg'),
      port: await freePort(),
      database: 'postgres',
      ephemeral: true,
    });
    stops.push(() => embedded.stop());
    adminUrl = embedded.url;
  }

  const templateDatabase = `atelier_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${templateDatabase}`);
  await admin.query(`CREATE DATABASE ${templateDatabase}`);
  await admin.end();
  const templateUrl = withDatabase(adminUrl, templateDatabase);
  const db = connectDb({ url: templateUrl, max: 2 });
  await migrateToLatest(db);
  await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
  await db.destroy();

  const bundle = await bundleRunWorkflows();
  const workflowBundlePath = path.join(scratch, 'workflow-bundle.js');
  await writeFile(workflowBundlePath, bundle.code);

  project.provide('temporalAddress', temporalAddress);
  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);
  project.provide('workflowBundlePath', workflowBundlePath);

  return async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
