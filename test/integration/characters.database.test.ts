import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerUser, startHarness } from '../support/harness';

/**
 * The rules of characters and consent hold for writes that bypass the API: each test writes straight to
 * PostgreSQL, as an operator's psql session or an import job would, and expects the database to refuse.
 */
let h: Harness;
let ws: string;
let otherWs: string;
let project: string;
let otherProject: string;

const q = (text: string, ...values: unknown[]) =>
  sql.raw(text.replace(/\$(\d+)/g, (_, i) => sql.lit(values[Number(i) - 1] as never).compile(h.db).sql)).execute(h.db);

async function refused(write: Promise<unknown>, code: string, message?: RegExp) {
  const err = await write.then(
    () => null,
    (e: { code?: string; message: string }) => e,
  );
  expect(err, 'the database accepted the write').not.toBeNull();
  expect(err!.code).toBe(code);
  if (message) expect(err!.message).toMatch(message);
}

async function subject(workspace = ws) {
  const id = randomUUID();
  await q(
    `insert into subjects (id, workspace_id, display_name, attested_adult, attested_not_political, etag) values ($1, $2, 'P', true, true, 'e')`,
    id,
    workspace,
  );
  return id;
}

async function consent(subjectId: string, workspace = ws, status = 'pending') {
  const id = randomUUID();
  await q(
    `insert into likeness_consents (id, workspace_id, subject_id, grantor, covers_likeness, covers_voice, scope, starts_on, ends_on, evidence_kind, evidence_sha256, etag)
     values ($1, $2, $3, 'subject', true, false, '{"uses":[],"media":["image"],"channels":[],"territories":[]}', '2026-01-01', '2030-01-01', 'other', $4, 'e')`,
    id,
    workspace,
    subjectId,
    randomBytes(32).toString('hex'),
  );
  if (status !== 'pending') await q(`update likeness_consents set status = $1 where id = $2`, status, id);
  return id;
}

async function character(workspace = ws, projectId = project, format = 'likeness') {
  const id = randomUUID();
  await q(
    `insert into characters (id, workspace_id, project_id, name, format, etag) values ($1, $2, $3, 'C', $4, 'e')`,
    id,
    workspace,
    projectId,
    format,
  );
  return id;
}

async function version(characterId: string, number: number, subjectId: string | null, workspace = ws) {
  const id = randomUUID();
  await q(
    `insert into character_versions (id, character_id, workspace_id, number, format, name, persona, "references", subject_id)
     values ($1, $2, $3, $4, $5, 'C', '{}', '[{"id":"r","role":"portrait","artifactId":"a"}]', $6)`,
    id,
    characterId,
    workspace,
    number,
    subjectId ? 'likeness' : 'synthetic',
    subjectId,
  );
  return id;
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  const a = await registerUser(h);
  const b = await registerUser(h);
  ws = a.workspaceId;
  otherWs = b.workspaceId;
  project = randomUUID();
  otherProject = randomUUID();
  await q(`insert into projects (id, workspace_id, name) values ($1, $2, 'P'), ($3, $4, 'Q')`, project, ws, otherProject, otherWs);
});
afterAll(() => h?.stop());

describe('rules PostgreSQL enforces on its own', () => {
  it('a subject must be attested adult and not a political figure', async () => {
    await refused(
      q(
        `insert into subjects (id, workspace_id, display_name, attested_adult, attested_not_political, etag) values ($1, $2, 'Kid', false, true, 'e')`,
        randomUUID(),
        ws,
      ),
      '23514',
      /attested/,
    );
    await refused(
      q(
        `insert into subjects (id, workspace_id, display_name, attested_adult, attested_not_political, etag) values ($1, $2, 'Senator', true, false, 'e')`,
        randomUUID(),
        ws,
      ),
      '23514',
    );
    const id = await subject();
    await refused(q(`update subjects set attested_adult = false where id = $1`, id), '23514');
  });

  it('a consent may not exceed ten years', async () => {
    const s = await subject();
    const id = await consent(s);
    await refused(q(`update likeness_consents set ends_on = '2036-01-02' where id = $1`, id), '23514', /ten_years/);
    await q(`update likeness_consents set ends_on = '2036-01-01' where id = $1`, id);
  });

  it('consent terms cannot be edited once the consent has left pending, and a consent moves only as the state machine says', async () => {
    const s = await subject();
    const id = await consent(s, ws, 'active');
    await refused(
      q(`update likeness_consents set scope = '{"uses":["*"],"media":["*"],"channels":["*"],"territories":["*"]}' where id = $1`, id),
      '23514',
      /terms/,
    );
    await refused(q(`update likeness_consents set ends_on = '2029-01-01' where id = $1`, id), '23514');
    await refused(q(`update likeness_consents set status = 'pending' where id = $1`, id), '23514', /cannot move/);
    await q(`update likeness_consents set status = 'revoked' where id = $1`, id);
    await refused(q(`update likeness_consents set status = 'active' where id = $1`, id), '23514');
    await refused(q(`delete from likeness_consents where id = $1`, id), '23514');
    const pending = await consent(s);
    await refused(q(`update likeness_consents set status = 'suspended' where id = $1`, pending), '23514');
  });

  it('consent history is written by the database and cannot be rewritten', async () => {
    const s = await subject();
    const id = await consent(s, ws, 'active');
    await q(`update likeness_consents set status = 'suspended' where id = $1`, id);
    const events = await h.db
      .selectFrom('likeness_consent_events')
      .select(['from_status', 'to_status'])
      .where('consent_id', '=', id)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { from_status: null, to_status: 'pending' },
      { from_status: 'pending', to_status: 'active' },
      { from_status: 'active', to_status: 'suspended' },
    ]);
    await refused(q(`update likeness_consent_events set to_status = 'revoked' where consent_id = $1`, id), '23514', /append-only/);
    await refused(q(`delete from likeness_consent_events where consent_id = $1`, id), '23514');
  });

  it('frozen versions cannot be edited; retiring is allowed once and never undone; versions are never deleted', async () => {
    const s = await subject();
    const c = await character();
    const v = await version(c, 1, s);
    await refused(q(`update character_versions set name = 'Edited' where id = $1`, v), '23514', /frozen/);
    await refused(
      q(`update character_versions set "references" = '[{"id":"x","role":"pose","artifactId":"b"}]' where id = $1`, v),
      '23514',
    );
    await q(`update character_versions set retired_at = now(), retired_reason = 'done' where id = $1`, v);
    await refused(q(`update character_versions set retired_at = null where id = $1`, v), '23514', /stays retired/);
    await refused(q(`delete from character_versions where id = $1`, v), '23514');
  });

  it('a likeness version names its subject, and later versions the same person', async () => {
    const c = await character();
    await refused(
      q(
        `insert into character_versions (id, character_id, workspace_id, number, format, name, persona, "references") values ($1, $2, $3, 1, 'likeness', 'C', '{}', '[{"id":"r"}]')`,
        randomUUID(),
        c,
        ws,
      ),
      '23514',
      /likeness_names_subject/,
    );
    const first = await subject();
    const second = await subject();
    await version(c, 1, first);
    await refused(version(c, 2, second), '23514', /same subject/);
    await version(c, 2, first);
  });

  it('no link crosses workspaces', async () => {
    const foreignSubject = await subject(otherWs);
    // A character in one workspace pointing at another workspace's project.
    await refused(character(ws, otherProject), '23503');
    // A consent recorded in one workspace for another workspace's subject.
    await refused(consent(foreignSubject, ws), '23503');
    const c = await character();
    // A version depicting another workspace's subject.
    await refused(version(c, 1, foreignSubject), '23503');
    // A reference to another workspace's artifact.
    const artifact = `artifact-${randomBytes(8).toString('hex')}`;
    await q(
      `insert into artifacts (id, workspace_id, title, status, artifact_class, artifact_type, content, qa) values ($1, $2, 't', 'ready', 'visual', 'illustration', '{}', '[]')`,
      artifact,
      otherWs,
    );
    await refused(
      q(
        `insert into character_references (id, character_id, workspace_id, role, artifact_id) values ($1, $2, $3, 'portrait', $4)`,
        randomUUID(),
        c,
        ws,
        artifact,
      ),
      '23503',
    );
    // A provider copy filed under another workspace than its version's.
    const v = await version(await character(ws, project, 'synthetic'), 1, null);
    await refused(
      q(
        `insert into character_bindings (id, workspace_id, version_id, provider, asset_kind, asset_id, provider_consent_status, etag) values ($1, $2, $3, 'local', 'likeness', 'a', 'accepted', 'e')`,
        randomUUID(),
        otherWs,
        v,
      ),
      '23503',
    );
  });

  it('a provider copy is not_required only when photo-based, and a project with characters is never deleted', async () => {
    const v = await version(await character(ws, project, 'synthetic'), 1, null);
    await refused(
      q(
        `insert into character_bindings (id, workspace_id, version_id, provider, asset_kind, asset_id, provider_consent_status, etag) values ($1, $2, $3, 'local', 'likeness', 'a', 'not_required', 'e')`,
        randomUUID(),
        ws,
        v,
      ),
      '23514',
    );
    await q(
      `insert into character_bindings (id, workspace_id, version_id, provider, asset_kind, asset_id, photo_based, provider_consent_status, etag) values ($1, $2, $3, 'local', 'likeness', 'a', true, 'not_required', 'e')`,
      randomUUID(),
      ws,
      v,
    );
    await refused(q(`delete from projects where id = $1`, project), '23503');
  });
});
