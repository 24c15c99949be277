import type { Db } from './connect.js';
import { type CreatedWindow, type PageOf, type PageRequest, createdWithin, pageOf } from './paging.js';
import type { Database } from './schema.js';
import type { Selectable } from 'kysely';

export interface ArtifactFilters extends PageRequest, CreatedWindow {
  workspaceId: string;
  projectId?: string;
  runId?: string;
  artifactClass?: string;
  artifactType?: string;
  status?: string;
}

/** A workspace's artifacts, newest first (created_at, then id, both descending); `total` counts every match. */
export async function listArtifacts(db: Db, f: ArtifactFilters): Promise<PageOf<Selectable<Database['artifacts']>>> {
  let q = db.selectFrom('artifacts').where('workspace_id', '=', f.workspaceId);
  if (f.projectId) q = q.where('project_id', '=', f.projectId);
  if (f.runId) q = q.where('run_id', '=', f.runId);
  if (f.artifactClass) q = q.where('artifact_class', '=', f.artifactClass);
  if (f.artifactType) q = q.where('artifact_type', '=', f.artifactType);
  if (f.status) q = q.where('status', '=', f.status);
  q = createdWithin(q, f);
  return pageOf(
    db,
    q,
    (qb) => qb.selectAll(),
    [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ],
    f,
  );
}
