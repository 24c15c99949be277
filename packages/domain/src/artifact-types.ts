import type { ArtifactTypeRef } from '@atelier/contracts/workflow-definition';

/** The registered artifact types: a workflow's outputShape must name one of these. */
export const ARTIFACT_TYPES: readonly ArtifactTypeRef[] = [
  { artifactClass: 'visual', artifactType: 'illustration' },
  { artifactClass: 'visual', artifactType: 'product-shot' },
  { artifactClass: 'visual', artifactType: 'cutout' },
  { artifactClass: 'video', artifactType: 'clip' },
  { artifactClass: 'video', artifactType: 'film-cut' },
  { artifactClass: 'research', artifactType: 'research-report' },
  { artifactClass: 'knowledge', artifactType: 'article' },
  { artifactClass: 'knowledge', artifactType: 'brand-profile' },
];

export function isRegisteredArtifactType(ref: ArtifactTypeRef): boolean {
  return ARTIFACT_TYPES.some((t) => t.artifactClass === ref.artifactClass && t.artifactType === ref.artifactType);
}
