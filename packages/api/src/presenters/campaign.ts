import type { CampaignRow, ManagedRequestState, OpsNotificationRow, OpsTaskRow } from '@atelier/db';

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

/** A platform operator's task (GET /v1/ops/tasks). */
export const presentOpsTask = (t: OpsTaskRow) => ({
  id: t.id,
  kind: t.kind,
  status: t.status,
  campaignId: t.campaign_id,
  campaignName: t.campaign_name,
  workspaceId: t.workspace_id,
  projectId: t.project_id,
  requestState: t.request_state as ManagedRequestState | null,
  createdAt: t.created_at.toISOString(),
});

/** A platform operator's notification (GET /v1/ops/inbox). */
export const presentOpsNotification = (n: OpsNotificationRow) => ({
  id: n.id,
  kind: n.kind,
  campaignId: n.campaign_id,
  workspaceId: n.workspace_id,
  message: n.message,
  createdAt: n.created_at.toISOString(),
});
