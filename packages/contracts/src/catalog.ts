import { z } from '@hono/zod-openapi';
import { Id, Instant, LIMITS, Pagination } from './common.js';
import { ArtifactTypeRef, IntakeField } from './workflow-definition.js';

export const CatalogWorkflowSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    purpose: z.string(),
    artifactClass: z.string(),
    outputType: z.string().nullable(),
    version: z.string(),
    status: z.enum(['active', 'deprecated']),
    supersededById: z.string().nullable(),
    roughDurationSeconds: z.number().int().nullable(),
    qaIncluded: z.boolean(),
    provided: z.array(z.object({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string().nullable() })),
    returned: z.object({ artifactClass: z.string(), artifactType: z.string(), files: z.array(z.string()), metadata: z.array(z.string()) }),
  })
  .openapi('CatalogWorkflowSummary');

const RedactedStep = z.object({ id: z.string(), name: z.string(), kind: z.string(), role: z.string().nullable() });

export const CatalogWorkflow = CatalogWorkflowSummary.extend({
  intakeSchema: z.object({ fields: z.array(IntakeField) }),
  runtimeSteps: z.array(RedactedStep).describe('Steps with prompts, schemas and bindings redacted'),
  gates: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
  outputShape: z.array(ArtifactTypeRef),
  budgetPolicy: z.record(z.string(), z.unknown()),
}).openapi('CatalogWorkflow');

export const Model = z
  .object({
    id: z.string(),
    provider: z.string(),
    kind: z.enum(['text', 'image', 'video', 'classifier', 'embedding']),
    capabilities: z.array(z.string()),
    pricing: z.record(z.string(), z.union([z.number(), z.string()])),
    batch: z.boolean(),
    status: z.string(),
    snapshotOf: z.string().nullable(),
  })
  .openapi('Model');

export const ARTIFACT_STATUS_VALUES = ['review', 'approved', 'rejected', 'draft', 'ready'] as const;
export const ARTIFACT_CLASS_VALUES = ['visual', 'video', 'research', 'knowledge'] as const;

export const Artifact = z
  .object({
    id: z.string(),
    runId: z.string().nullable(),
    templateId: z.string().nullable(),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid().nullable(),
    title: z.string(),
    status: z.enum(ARTIFACT_STATUS_VALUES),
    artifactClass: z.enum(ARTIFACT_CLASS_VALUES),
    artifactType: z.string(),
    version: z.number().int(),
    content: z.record(z.string(), z.unknown()),
    qa: z.object({
      status: z.string(),
      checks: z.array(z.object({ id: z.string(), label: z.string(), status: z.enum(['pass', 'fail', 'pending']), detail: z.string() })),
    }),
    createdAt: z.string(),
    sourceReportArtifactId: z.string().nullable(),
  })
  .openapi('Artifact');

export const ListArtifactsQuery = Pagination.extend({
  workspaceId: z.string().uuid().optional(),
  projectId: z.string().uuid().optional(),
  runId: z.string().max(LIMITS.generatedId).optional().describe('Only the artifacts this run produced'),
  artifactClass: z.enum(ARTIFACT_CLASS_VALUES).optional(),
  artifactType: Id.optional().describe('For example illustration, film-cut'),
  status: z.enum(ARTIFACT_STATUS_VALUES).optional(),
  createdAfter: Instant.optional().describe('Artifacts created at or after this instant'),
  createdBefore: Instant.optional().describe('Artifacts created before this instant'),
});
