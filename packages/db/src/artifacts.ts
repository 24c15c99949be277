import type { Db } from './connect.js';
import { type CreatedWindow, type PageOf, type PageRequest, asked, createdWithin, pageOf } from './paging.js';
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
  const given = asked({
    project_id: f.projectId,
    run_id: f.runId,
    artifact_class: f.artifactClass,
    artifact_type: f.artifactType,
    status: f.status,
  });
  const q = createdWithin(
    db
      .selectFrom('artifacts')
      .where('workspace_id', '=', f.workspaceId)
      .where((eb) => eb.and(given)),
    f,
  );
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
