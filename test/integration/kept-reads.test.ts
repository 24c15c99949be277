import { type Transaction, sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { type Database, appendRunEvent, getWorkflowWithLive, insertRun } from '@atelier/db';
import { researchRunRow } from '../support/run-rows';
import { RunEventHub } from '@atelier/api/events/run-event-hub';
import { KeptReads } from '@atelier/api/kept/kept-reads';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, heardSoFar, registerUser, startHarness } from '../support/harness';

/**
 * The gateway keeps what every run creation reads (the workflow and its live version, the API key) in
 * memory and forgets it whenever what it was read from changes, whoever changed it. Against real
 * PostgreSQL: its own writes are seen by the next request; a change made by another process is heard
 * through the tables' triggers; and with the listening connection gone, nothing kept is trusted. Changes
 * made with a trigger disabled are the probe that shows something was kept at all (otherwise these tests
 * would pass without keeping anything).
 */
let h: Harness;
let owner: TestUser;

function notes(version: string) {
  return {
    id: 'plan-cached-notes',
    name: 'Cached notes',
    artifactClass: 'knowledge',
    version,
    cadence: 'on-demand',
    intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
    runtimeSteps: [{ id: 'step-1', name: 'Write notes', kind: 'llm', role: 'textGenerator', prompt: 'Notes on {{intake.topic}}' }],
    gates: [],
    providers: { textGenerator: 'local/text-1' },
    budgetPolicy: { perRunCapUsd: 0.1 },
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
  };
}

const createRun = () =>
  h.request('POST', '/v1/runs', { token: owner.token, body: { templateId: 'plan-cached-notes', intake: { topic: 'moss' } } });

async function publish(version: string): Promise<void> {
  const saved = await h.request('POST', '/v1/workflows', { token: owner.token, body: { definition: notes(version) } });
  expect(saved.status).toBe(version === '2026.11.01' ? 201 : 200);
  const published = await h.request('POST', '/v1/workflows/plan-cached-notes/publish', { token: owner.token, body: { version } });
  expect(published.status).toBe(200);
}

/** Changes a table as another process (or an operator's psql) would, announced by its trigger or not. */
async function change(table: 'workflows' | 'api_keys', announced: boolean, write: (tx: Transaction<Database>) => Promise<unknown>) {
  const trigger = sql.id(`${table}_announce_change`);
  await h.db.transaction().execute(async (tx) => {
    if (!announced) await sql`ALTER TABLE ${sql.table(table)} DISABLE TRIGGER ${trigger}`.execute(tx);
    await write(tx);
    if (!announced) await sql`ALTER TABLE ${sql.table(table)} ENABLE TRIGGER ${trigger}`.execute(tx);
  });
}

/**
 * Runs `write` (the gateway's own, through the API) with the tables' triggers disabled: only the gateway's
 * own forgetting after its write can make its next request see the change.
 */
async function unannounced(tables: string[], write: () => Promise<void>): Promise<void> {
  const toggle = (state: 'DISABLE' | 'ENABLE') =>
    Promise.all(
      tables.map((t) => sql`ALTER TABLE ${sql.table(t)} ${sql.raw(state)} TRIGGER ${sql.id(`${t}_announce_change`)}`.execute(h.db)),
    );
  await toggle('DISABLE');
  try {
    await write();
  } finally {
    await toggle('ENABLE');
  }
}

const setLiveVersion = (version: string, announced: boolean) =>
  change('workflows', announced, (tx) =>
    tx.updateTable('workflows').set({ live_version: version }).where('id', '=', 'plan-cached-notes').execute(),
  );

async function pinnedWithin(version: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const run = await createRun();
    expect(run.status).toBe(201);
    if (run.body.workflowVersion === version || Date.now() > deadline) {
      expect(run.body.workflowVersion).toBe(version);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitUntil(done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('not within the time allowed');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await registerUser(h);
}, 120_000);

afterAll(() => h?.stop());

describe('the workflows a gateway keeps for run creation', () => {
  it('pins the version its own publish made live, at once', async () => {
    await publish('2026.11.01');
    // The first run creation opens the gateway's listening connection (reading through meanwhile); once it
    // listens and the publish's own announcements have arrived, what the next one reads is kept.
    expect((await createRun()).body.workflowVersion).toBe('2026.11.01');
    await heardSoFar(h);
    expect((await createRun()).body.workflowVersion).toBe('2026.11.01');
    await unannounced(['workflows', 'workflow_versions'], () => publish('2026.11.02'));
    expect((await createRun()).body.workflowVersion).toBe('2026.11.02');
  });

  it('keeps what it read until a change is announced, and hears changes other processes commit', async () => {
    await pinnedWithin('2026.11.02', 0);
    // Unannounced: the gateway goes on pinning what it kept.
    await setLiveVersion('2026.11.01', false);
    expect((await createRun()).body.workflowVersion).toBe('2026.11.02');
    // Announced by the trigger on commit: heard within moments.
    await setLiveVersion('2026.11.01', true);
    await pinnedWithin('2026.11.01', 2_000);
    // A deprecation by another process refuses new runs as soon as it is heard.
    await h.db
      .updateTable('workflows')
      .set({ status: 'deprecated', superseded_by_id: 'plan-research-report' })
      .where('id', '=', 'plan-cached-notes')
      .execute();
    await heardSoFar(h);
    const refused = await createRun();
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatchObject({ code: 'template_deprecated', supersededBy: 'plan-research-report' });
    // Reactivated by another process: accepted as soon as that is heard too.
    await h.db.updateTable('workflows').set({ status: 'active', superseded_by_id: null }).where('id', '=', 'plan-cached-notes').execute();
    await heardSoFar(h);
    expect((await createRun()).status).toBe(201);
    await pinnedWithin('2026.11.01', 2_000);
  });

  it('trusts nothing it kept once the listening connection is lost', async () => {
    await pinnedWithin('2026.11.01', 0);
    await setLiveVersion('2026.11.02', false);
    expect((await createRun()).body.workflowVersion).toBe('2026.11.01');
    const { rows } = await sql<{ ended: boolean }>`
      SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(h.db);
    expect(rows.length).toBeGreaterThan(0);
    // Read from the database while the gateway is not hearing, and kept again once it hears.
    await pinnedWithin('2026.11.02', 2_000);
    await new Promise((r) => setTimeout(r, 1_000));
    await setLiveVersion('2026.11.01', true);
    await pinnedWithin('2026.11.01', 2_000);
  });

  it('hears run events on the same connection only once a stream subscribes, and again after it is lost', async () => {
    const hub = new RunEventHub(h.databaseUrl, pino({ level: 'silent' }));
    // The hub's own connection: the one listening that was not before (the gateway's hub listens too).
    const listeners = async () =>
      (
        await sql<{ pid: number; query: string }>`
          SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(h.db)
      ).rows;
    try {
      const before = (await listeners()).map((l) => l.pid);
      await hub.listen();
      const own = (await listeners()).filter((l) => !before.includes(l.pid));
      expect(own.map((l) => l.query)).toEqual(['LISTEN atelier_table_changes']);

      const heard: Array<string | undefined> = [];
      await hub.subscribeAll((event) => heard.push(event?.type));
      const runId = `run-${randomBytes(4).toString('hex')}`;
      await insertRun(h.db, researchRunRow(runId, owner.workspaceId, 'pending', 'heard'));
      await waitUntil(() => heard.includes('run.status'));

      await sql`SELECT pg_terminate_backend(${own[0]!.pid})`.execute(h.db);
      // Woken with nothing once reconnected (anything may have happened), then hearing events again.
      await waitUntil(() => heard.includes(undefined) && hub.hearing);
      await appendRunEvent(h.db, runId, 'run.note', { after: 'reconnect' });
      await waitUntil(() => heard.includes('run.note'));
    } finally {
      await hub.close();
    }
  });

  it('opens no listening connection for a gateway that has closed', async () => {
    const hub = new RunEventHub(h.databaseUrl, pino({ level: 'silent' }));
    const workflows = new KeptReads(hub, ['workflows'], (id) => getWorkflowWithLive(h.db, id));
    await hub.listen();
    expect(hub.hearing).toBe(true);
    await hub.close();
    expect((await workflows.get('plan-cached-notes'))?.live?.version).toBe('2026.11.01');
    await hub.listen();
    expect(hub.hearing).toBe(false);
  });
});

describe('the API keys a gateway keeps', () => {
  async function newKey(): Promise<{ id: string; secret: string }> {
    const res = await h.request('POST', '/v1/api-keys', { token: owner.token, body: { name: 'kept key' } });
    expect(res.status).toBe(201);
    return { id: res.body.id, secret: res.body.secret };
  }
  const whoAmI = (secret: string) => h.request('GET', '/v1/runs?limit=1', { token: secret });

  it('stops a key its own revocation revoked, at once', async () => {
    const key = await newKey();
    // The first use stamps last_used_at (announced); the second is kept.
    expect((await whoAmI(key.secret)).status).toBe(200);
    await heardSoFar(h);
    expect((await whoAmI(key.secret)).status).toBe(200);
    await unannounced(['api_keys'], async () => {
      expect((await h.request('DELETE', `/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(200);
    });
    expect((await whoAmI(key.secret)).status).toBe(401);
  });

  it('stops a key another process revoked as soon as the revocation is announced', async () => {
    const key = await newKey();
    // The first use stamps last_used_at, a change to api_keys like any other; the second is kept.
    expect((await whoAmI(key.secret)).status).toBe(200);
    await heardSoFar(h);
    expect((await whoAmI(key.secret)).status).toBe(200);
    const revoke = (tx: Transaction<Database>) =>
      tx.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', key.id).execute();
    // Unannounced (the probe): the gateway goes on accepting the key it kept.
    await change('api_keys', false, revoke);
    expect((await whoAmI(key.secret)).status).toBe(200);
    await change('api_keys', true, revoke);
    const deadline = Date.now() + 2_000;
    let status = (await whoAmI(key.secret)).status;
    while (status === 200 && Date.now() < deadline) status = (await whoAmI(key.secret)).status;
    expect(status).toBe(401);
  });
});
