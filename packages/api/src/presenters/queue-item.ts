import type { QueueRow } from '@atelier/db';
import { holdFieldsOf } from '@atelier/domain';

export function presentQueueItem(r: QueueRow) {
  return {
    runId: r.run_id,
    templateId: r.template_id,
    templateName: r.template_name,
    workspaceId: r.workspace_id,
    projectId: r.project_id,
    gateId: r.review_gate_id,
    gateName: r.review_gate_name ?? r.review_gate_id,
    status: 'review' as const,
    artifactId: r.artifact_id,
    artifactTitle: r.artifact_title,
    artifactStatus: r.artifact_status,
    qa:
      (r.qa as {
        status: string;
        checks: Array<{ id: string; label: string; status: 'pass' | 'fail' | 'pending'; detail: string }>;
      } | null) ?? null,
    holdFields: holdFieldsOf(r.hold_fields),
    queuedAt: r.queued_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    enteredReviewAt: new Date(r.entered_review_at).toISOString(),
  };
}
