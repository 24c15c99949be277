import type { Insertable } from 'kysely';
import type { Database, RunRow } from '@atelier/db';
import { type QaRecord, qaForContent } from '@atelier/domain';
import type { PackMembership } from '@atelier/domain/pack-membership';

export { type PackMembership, packMembership } from '@atelier/domain/pack-membership';

export interface ArtifactSchemaLike {
  artifactClass: string;
  artifactType: string;
}

export function artifactSchemaOf(run: RunRow): ArtifactSchemaLike {
  const schema = (run.definition as { artifactSchema?: ArtifactSchemaLike }).artifactSchema;
  if (!schema) throw new Error(`run ${run.id} has no artifactSchema in its pinned definition`);
  return schema;
}

/** A run's output as its artifact: its id and content, and its QA when a settlement has judged it. */
export interface ArtifactOutput {
  id: string;
  content: unknown;
  qa?: QaRecord;
}

/**
 * The artifact row for a run's output, with provenance (run, template), QA judged on the content (unless the
 * settlement that writes it judged it already: `artifact.qa`), and
 * the status the run's outcome implies: `ready` on completion, `review` when a human must look,
 * `draft` while the run is still going (an emitted artifact).
 */
export function artifactRow(
  run: RunRow,
  artifact: ArtifactOutput,
  status: 'ready' | 'review' | 'draft',
  sourceReportArtifactId?: string | null,
  pack?: PackMembership | null,
): Insertable<Database['artifacts']> {
  const own = artifactOwnColumns(artifactSchemaOf(run), artifact, status, sourceReportArtifactId);
  return {
    ...own,
    run_id: run.id,
    workspace_id: run.workspace_id,
    project_id: run.project_id,
    template_id: run.template_id,
    title: own.title ?? run.template_name,
    pack_id: pack?.packId ?? null,
    pack_member_id: pack?.memberId ?? null,
  };
}

/**
 * The columns an artifact has of its own, not of its run: its content and QA, its class and type, its
 * status and source; `title` is the content's (null without one: the run's template name stands in).
 */
export function artifactOwnColumns(
  schema: ArtifactSchemaLike,
  artifact: ArtifactOutput,
  status: 'ready' | 'review' | 'draft',
  sourceReportArtifactId?: string | null,
) {
  const content = (artifact.content ?? {}) as Record<string, unknown>;
  return {
    id: artifact.id,
    title: typeof content.title === 'string' && content.title ? content.title : null,
    status,
    artifact_class: schema.artifactClass,
    artifact_type: schema.artifactType,
    content: JSON.stringify(content),
    qa: JSON.stringify(artifact.qa ?? qaForContent(schema.artifactType, content)),
    source_report_artifact_id: sourceReportArtifactId ?? null,
  };
}
