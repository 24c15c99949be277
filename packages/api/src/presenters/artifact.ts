import type { Selectable } from 'kysely';
import type { Database } from '@atelier/db';
import type { ObjectStorage } from '@atelier/storage';

/** How stored files become addresses: the storage driver, and the origin clients reach the gateway at. */
export interface FileLinks {
  storage: ObjectStorage;
  origin: string;
}

/**
 * An artifact as the API shows it. With `links`, content that names a stored file (`storageKey`) gets
 * its download address in `content.url`: through the gateway for local storage, a public or signed
 * GCS URL otherwise. The stored content never holds a url, so a changed origin or an expired signature
 * never sticks to the record.
 */
export async function presentArtifact(a: Selectable<Database['artifacts']>, links?: FileLinks) {
  const content = { ...(a.content as Record<string, unknown>) };
  if (links && typeof content.storageKey === 'string') {
    try {
      content.url = await links.storage.url(content.storageKey, links.origin);
    } catch {
      // A key the driver refuses (or a signing failure) leaves the url out rather than failing the read.
    }
  }
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
    content,
    qa: a.qa as { status: string; checks: Array<{ id: string; label: string; status: 'pass' | 'fail' | 'pending'; detail: string }> },
    createdAt: a.created_at.toISOString(),
    sourceReportArtifactId: a.source_report_artifact_id,
  };
}
