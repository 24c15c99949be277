import type { Insertable } from 'kysely';
import type { Database, RunRow } from '@atelier/db';
import { qaForContent } from '@atelier/domain';

interface ArtifactSchemaLike {
  artifactClass: string;
  artifactType: string;
}

export function artifactSchemaOf(run: RunRow): ArtifactSchemaLike {
  const schema = (run.definition as { artifactSchema?: ArtifactSchemaLike }).artifactSchema;
  if (!schema) throw new Error(`run ${run.id} has no artifactSchema in its pinned definition`);
  return schema;
}

/**
 * The artifact row for a run's output, with provenance (run, template), QA judged on the content, and
 * the status the run's outcome implies: `ready` on completion, `review` when a human must look,
 * `draft` while the run is still going (an emitted artifact).
 */
export function artifactRow(
  run: RunRow,
  artifact: { id: string; content: unknown },
  status: 'ready' | 'review' | 'draft',
  sourceReportArtifactId?: string | null,
  pack?: PackMembership | null,
): Insertable<Database['artifacts']> {
  const schema = artifactSchemaOf(run);
  const content = (artifact.content ?? {}) as Record<string, unknown>;
  return {
    id: artifact.id,
    run_id: run.id,
    workspace_id: run.workspace_id,
    project_id: run.project_id,
    template_id: run.template_id,
    title: typeof content.title === 'string' && content.title ? content.title : run.template_name,
    status,
    artifact_class: schema.artifactClass,
    artifact_type: schema.artifactType,
    content: JSON.stringify(content),
    qa: JSON.stringify(qaForContent(schema.artifactType, content)),
    source_report_artifact_id: sourceReportArtifactId ?? null,
    pack_id: pack?.packId ?? null,
    pack_member_id: pack?.memberId ?? null,
  };
}

/** An order child's place in its pack: the plan artifact, and a member id stable across re-rolls. */
export interface PackMembership {
  packId: string;
  memberId: string;
}

export function packMembership(planArtifactId: string | null | undefined, dedupeKey: string | null): PackMembership | null {
  return planArtifactId && dedupeKey ? { packId: planArtifactId, memberId: `member-${dedupeKey.slice(0, 16)}` } : null;
}
