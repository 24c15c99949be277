import type { Selectable } from 'kysely';
import type { Database } from '@atelier/db';
import { isArtifactFile } from '@atelier/domain/artifact-files';
import { type FileUrlSigning, signedFileUrl } from '@atelier/storage/file-urls';

/** How stored files become addresses: the origin clients reach the gateway at, and the URL signing settings. */
export interface FileLinks {
  origin: string;
  signing: FileUrlSigning;
  /** The clock, in unix seconds (tests); now by default. */
  nowSeconds?: number;
}

/**
 * An artifact as the API shows it. With `links`, content that names a stored file (`storageKey`) gets
 * its download address in `content.url`: the gateway's signed, expiring `/v1/files/{key}?exp&sig`, made
 * at read time for whoever may read the artifact (with GCS the gateway redirects on to the object once
 * the signature verifies). The stored content never holds a url, so neither a changed origin nor an
 * expired or revoked signature ever sticks to the record, and a storage key alone is no access: only the
 * artifact's own files are signed (domain/artifact-files.ts), so content that names another artifact's key
 * (written before steps were refused for it) gets no url, and neither does a url a step wrote itself.
 */
export async function presentArtifact(a: Selectable<Database['artifacts']>, links?: FileLinks) {
  const content = { ...(a.content as Record<string, unknown>) };
  const owner = { id: a.id, artifactType: a.artifact_type };
  // The public url is the processed file's; a visual's raw file (before background removal) gets its own.
  for (const [keyField, urlField] of [
    ['storageKey', 'url'],
    ['rawStorageKey', 'rawUrl'],
  ] as const) {
    const key = content[keyField];
    if (key === undefined) continue;
    delete content[urlField];
    if (!links || !isArtifactFile(owner, key)) continue;
    try {
      content[urlField] = signedFileUrl(links.origin, key, links.signing, links.nowSeconds);
    } catch {
      // A key that cannot be signed leaves the url out rather than failing the read.
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
