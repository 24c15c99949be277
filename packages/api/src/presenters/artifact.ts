import type { Selectable } from 'kysely';
import type { Database } from '@atelier/db';

export function presentArtifact(a: Selectable<Database['artifacts']>) {
  return {
    id: a.id,
    runId: a.run_id,
    templateId: a.template_id,
    workspaceId: a.workspace_id,
    projectId: a.project_id,
    title: a.title,
    status: a.status as 'review' | 'approved' | 'rejected' | 'draft' | 'ready',
    artifactClass: a.artifact_class as 'visual' | 'video' | 'research' | 'knowledge',
    artifactType: a.artifact_type,
    version: a.version,
    content: a.content as Record<string, unknown>,
    qa: a.qa as { status: string; checks: Array<{ id: string; label: string; status: 'pass' | 'fail' | 'pending'; detail: string }> },
    createdAt: a.created_at.toISOString(),
    sourceReportArtifactId: a.source_report_artifact_id,
  };
}
