import type { IntakeField } from '@atelier/contracts/workflow-definition';
import { type Db, getArtifact } from '@atelier/db';

export interface SuppliedArtifacts {
  /** Content of each supplied artifact by intake field, exposed to steps at `inputs.{field}`. */
  inputs: Record<string, unknown>;
  artifactIds: Record<string, string>;
  /** The supplied research report, which the produced artifact names as its source. */
  sourceReportArtifactId: string | null;
  errors: string[];
}

/**
 * Resolves the artifactReference intake fields: each artifact must exist in the run's workspace and
 * have the class (and type, when the field names one) the field declares. Problems are reported in the
 * same plain language as other intake errors.
 */
export async function resolveSuppliedArtifacts(
  db: Db,
  workspaceId: string,
  fields: readonly IntakeField[],
  intake: Record<string, unknown>,
): Promise<SuppliedArtifacts> {
  const result: SuppliedArtifacts = { inputs: {}, artifactIds: {}, sourceReportArtifactId: null, errors: [] };
  for (const field of fields) {
    if (field.type !== 'artifactReference' || typeof intake[field.name] !== 'string') continue;
    const id = intake[field.name] as string;
    const artifact = await getArtifact(db, id);
    if (!artifact || artifact.workspace_id !== workspaceId) {
      result.errors.push(`${field.name}: there is no artifact ${id} in this workspace`);
      continue;
    }
    const wanted = `${field.artifactClass ?? artifact.artifact_class}/${field.artifactType ?? artifact.artifact_type}`;
    const got = `${artifact.artifact_class}/${artifact.artifact_type}`;
    if (wanted !== got) {
      result.errors.push(`${field.name} must be a ${field.artifactType ? wanted : `${field.artifactClass} artifact`} (got ${got})`);
      continue;
    }
    result.inputs[field.name] = { ...(artifact.content as object), artifactId: artifact.id };
    result.artifactIds[field.name] = artifact.id;
    if (artifact.artifact_type === 'research-report') result.sourceReportArtifactId = artifact.id;
  }
  return result;
}
