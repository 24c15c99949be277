import type { CampaignRow } from '@atelier/db';

type Brief = { objective: string; deliverables: string[]; deadline: string | null; notes: string };

export function presentCampaign(r: CampaignRow) {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    projectId: r.project_id,
    name: r.name,
    brief: r.brief as Brief,
    status: r.status,
    brandSnapshotId: r.brand_snapshot_id,
    requestState: r.request_state,
    archived: r.archived,
    etag: r.etag,
    submittedAt: r.submitted_at ? r.submitted_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
