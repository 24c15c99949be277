import { type Selectable, sql } from 'kysely';
import { compareVersions, sha256Hex, canonicalJson } from '@atelier/domain';
import { compiledOnce } from './compiled-once.js';
import type { Db, Executor } from './connect.js';
import type { WorkflowVersionsTable, WorkflowsTable } from './schema.js';
import { pageOf } from './paging.js';

export type WorkflowRow = Selectable<WorkflowsTable>;
export type WorkflowVersionRow = Selectable<WorkflowVersionsTable>;

/** A built-in this release ships that was not installed: a workspace had authored a workflow with its id. */
export interface BuiltinCollision {
  id: string;
  workspaceId: string;
}

interface DefinitionLike {
  id: string;
  name: string;
  version: string;
  status?: 'active' | 'deprecated';
  supersededById?: string | null;
}

/**
 * Makes the database's platform catalog match the shipped definition files. Idempotent: unchanged
 * versions are left alone; a published version whose file changed is refused, because published
 * versions are frozen and runs pin them. Every gateway and worker syncs at start, and several start at
 * once on a new database (`docker compose up`): one at a time, so none inserts a row another just did.
 *
 * A built-in whose id a workspace already holds (authored before a release shipped that id) is not
 * installed, and the release starts all the same: ids belong to one workflow forever, so the authored
 * workflow keeps its id and its runs, and the built-in must ship under another id. Each such id is
 * answered, for the caller to log loudly.
 */
export async function syncBuiltinWorkflows(db: Db, definitions: readonly DefinitionLike[]): Promise<BuiltinCollision[]> {
  const byId = new Map<string, DefinitionLike[]>();
  for (const def of definitions) byId.set(def.id, [...(byId.get(def.id) ?? []), def]);
  const collisions: BuiltinCollision[] = [];
  await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('atelier:sync-builtin-workflows', 0))`.execute(tx);
    for (const [id, versions] of byId) {
      versions.sort((a, b) => compareVersions(a.version, b.version));
      const live = versions[versions.length - 1]!;
      const existing = await tx.selectFrom('workflows').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (existing && existing.workspace_id !== null) {
        collisions.push({ id, workspaceId: existing.workspace_id });
        continue;
      }
      const row = {
        name: live.name,
        status: live.status ?? 'active',
        superseded_by_id: live.supersededById ?? null,
        visibility: 'public' as const,
        live_version: live.version,
        updated_at: new Date(),
      };
      if (existing) await tx.updateTable('workflows').set(row).where('id', '=', id).execute();
      else
        await tx
          .insertInto('workflows')
          .values({ id, workspace_id: null, ...row })
          .execute();

      for (const def of versions) {
        const hash = sha256Hex(canonicalJson(def));
        const stored = await tx
          .selectFrom('workflow_versions')
          .select('definition_hash')
          .where('workflow_id', '=', id)
          .where('version', '=', def.version)
          .executeTakeFirst();
        if (stored && stored.definition_hash !== hash) {
          throw new Error(`built-in workflow ${id} ${def.version} changed after it was published; ship the change as a new version`);
        }
        if (!stored) {
          await tx
            .insertInto('workflow_versions')
            .values({
              workflow_id: id,
              version: def.version,
              definition: JSON.stringify(def),
              definition_hash: hash,
              state: 'published',
              visibility: 'public',
              published_at: new Date(),
            })
            .execute();
        }
      }
    }
  });
  return collisions;
}

export async function getWorkflow(db: Db, id: string): Promise<WorkflowRow | undefined> {
  return db.selectFrom('workflows').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every run creation reads its workflow this way, so the text is compiled once. */
const workflowWithLive = compiledOnce((db: Executor, id: string) =>
  db
    .selectFrom('workflows as w')
    .leftJoin('workflow_versions as v', (j) => j.onRef('v.workflow_id', '=', 'w.id').onRef('v.version', '=', 'w.live_version'))
    .selectAll('w')
    .select([
      'v.version as v_version',
      'v.definition as v_definition',
      'v.definition_hash as v_definition_hash',
      'v.state as v_state',
      'v.visibility as v_visibility',
      'v.created_at as v_created_at',
      'v.published_at as v_published_at',
    ])
    .where('w.id', '=', id),
);

/**
 * A workflow with its live version (undefined while it has none), in one query: what creating a run
 * reads on every request.
 */
export async function getWorkflowWithLive(
  db: Db,
  id: string,
): Promise<{ workflow: WorkflowRow; live: WorkflowVersionRow | undefined } | undefined> {
  const [row] = (await workflowWithLive(db, id)).rows;
  if (!row) return undefined;
  const { v_version, v_definition, v_definition_hash, v_state, v_visibility, v_created_at, v_published_at, ...workflow } = row;
  const live =
    v_version === null || v_state === null || v_definition_hash === null || v_created_at === null
      ? undefined
      : {
          workflow_id: workflow.id,
          version: v_version,
          definition: v_definition,
          definition_hash: v_definition_hash,
          state: v_state,
          visibility: v_visibility,
          created_at: v_created_at,
          published_at: v_published_at,
        };
  return { workflow, live };
}

export async function getWorkflowVersion(db: Db, id: string, version: string): Promise<WorkflowVersionRow | undefined> {
  return db.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', id).where('version', '=', version).executeTakeFirst();
}

export async function listPublicWorkflows(db: Db): Promise<Array<WorkflowRow & { definition: unknown }>> {
  return db
    .selectFrom('workflows')
    .innerJoin('workflow_versions', (j) =>
      j.onRef('workflow_versions.workflow_id', '=', 'workflows.id').onRef('workflow_versions.version', '=', 'workflows.live_version'),
    )
    .selectAll('workflows')
    .select('workflow_versions.definition')
    .where('workflows.visibility', '=', 'public')
    .orderBy('workflows.id')
    .execute();
}

/** The newest version of a workflow in the given state (draft or published), by version order. */
export async function getNewestVersion(db: Db, id: string, state: 'draft' | 'published'): Promise<WorkflowVersionRow | undefined> {
  const rows = await db.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', id).where('state', '=', state).execute();
  return rows.sort((a, b) => compareVersions(b.version, a.version))[0];
}

/** Built-ins and the workflows one workspace authored (any visibility): what that workspace can run. */
export async function listWorkspaceWorkflows(
  db: Db,
  workspaceId: string,
  page: { offset: number; limit: number },
): Promise<{ items: WorkflowRow[]; total: number }> {
  const base = db
    .selectFrom('workflows')
    .where((eb) =>
      eb.or([eb('workspace_id', '=', workspaceId), eb.and([eb('workspace_id', 'is', null), eb('visibility', '!=', 'draft')])]),
    );
  return pageOf(db, base, (qb) => qb.selectAll(), ['id'], page);
}

/** Every version of a workflow, newest first by version order. */
export async function listWorkflowVersions(db: Db, id: string): Promise<WorkflowVersionRow[]> {
  const rows = await db.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', id).execute();
  return rows.sort((a, b) => compareVersions(b.version, a.version));
}

/**
 * Checks made while the workflow row is locked: it may throw to refuse the change (nothing is then
 * written). `existing` is undefined when the workflow is being created by this call.
 */
export type WorkflowGuard<T = void> = (existing: WorkflowRow | undefined, versions: WorkflowVersionRow[]) => T;

export interface DraftVersion {
  name: string;
  version: string;
  definition: unknown;
}

/**
 * Creates a workspace's workflow with one draft version, or replaces its current draft (a workflow has at
 * most one draft; published versions are never touched). `prepare` checks the request against the locked
 * row and its versions and returns the draft to write, or throws; all of it is one transaction.
 */
export async function saveWorkflowDraft(
  db: Db,
  target: { id: string; workspaceId: string },
  prepare: WorkflowGuard<DraftVersion>,
): Promise<{ created: boolean }> {
  return db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('workflows')
      .values({
        id: target.id,
        workspace_id: target.workspaceId,
        name: target.id,
        status: 'active',
        superseded_by_id: null,
        visibility: 'draft',
        live_version: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    const workflow = await tx.selectFrom('workflows').selectAll().where('id', '=', target.id).forUpdate().executeTakeFirstOrThrow();
    const versions = await tx.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', target.id).execute();
    const draft = prepare(inserted ? undefined : workflow, versions);
    await tx.deleteFrom('workflow_versions').where('workflow_id', '=', target.id).where('state', '=', 'draft').execute();
    await tx
      .insertInto('workflow_versions')
      .values({
        workflow_id: target.id,
        version: draft.version,
        definition: JSON.stringify(draft.definition),
        definition_hash: sha256Hex(canonicalJson(draft.definition)),
        state: 'draft',
        visibility: 'draft',
      })
      .execute();
    await tx
      .updateTable('workflows')
      .set({ updated_at: new Date(), ...(workflow.live_version === null ? { name: draft.name } : {}) })
      .where('id', '=', target.id)
      .execute();
    return { created: Boolean(inserted) };
  });
}

/**
 * Freezes a draft version as published and makes it the live one; the workflow becomes at least
 * `visibility`. Atomic with the guard's checks.
 */
export async function publishWorkflowVersion(
  db: Db,
  id: string,
  version: string,
  visibility: 'internal' | 'public',
  guard: WorkflowGuard,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const workflow = await tx.selectFrom('workflows').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
    const versions = await tx.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', id).execute();
    guard(workflow, versions);
    const draft = versions.find((v) => v.version === version && v.state === 'draft');
    if (!draft) throw new Error(`workflow ${id} has no draft version ${version}`);
    const now = new Date();
    await tx
      .updateTable('workflow_versions')
      .set({ state: 'published', visibility, published_at: now })
      .where('workflow_id', '=', id)
      .where('version', '=', version)
      .execute();
    const name = (draft.definition as { name?: unknown }).name;
    await tx
      .updateTable('workflows')
      .set({
        live_version: version,
        visibility: workflow.visibility === 'public' ? 'public' : visibility,
        updated_at: now,
        ...(typeof name === 'string' ? { name } : {}),
      })
      .where('id', '=', id)
      .execute();
  });
}

/** Marks a workflow deprecated in favour of its successor; new runs of it are then refused. */
export async function deprecateWorkflow(db: Db, id: string, supersededById: string): Promise<void> {
  await db
    .updateTable('workflows')
    .set({ status: 'deprecated', superseded_by_id: supersededById, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}
