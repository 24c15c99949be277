import type { Selectable } from 'kysely';
import { compareVersions, sha256Hex, canonicalJson } from '@atelier/domain';
import type { Db } from './connect';
import type { WorkflowVersionsTable, WorkflowsTable } from './schema';

export type WorkflowRow = Selectable<WorkflowsTable>;
export type WorkflowVersionRow = Selectable<WorkflowVersionsTable>;

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
 * versions are frozen and runs pin them.
 */
export async function syncBuiltinWorkflows(db: Db, definitions: readonly DefinitionLike[]): Promise<void> {
  const byId = new Map<string, DefinitionLike[]>();
  for (const def of definitions) byId.set(def.id, [...(byId.get(def.id) ?? []), def]);
  await db.transaction().execute(async (tx) => {
    for (const [id, versions] of byId) {
      versions.sort((a, b) => compareVersions(a.version, b.version));
      const live = versions[versions.length - 1]!;
      const existing = await tx.selectFrom('workflows').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (existing && existing.workspace_id !== null) {
        throw new Error(`built-in workflow ${id} collides with a workflow authored in workspace ${existing.workspace_id}`);
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
      else await tx.insertInto('workflows').values({ id, workspace_id: null, ...row }).execute();

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
}

export async function getWorkflow(db: Db, id: string): Promise<WorkflowRow | undefined> {
  return db.selectFrom('workflows').selectAll().where('id', '=', id).executeTakeFirst();
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
