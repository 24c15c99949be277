import { z } from '@hono/zod-openapi';
import { ARTIFACT_CLASS_VALUES, ARTIFACT_STATUS_VALUES } from './artifact-values.js';
import { Id, Instant, LIMITS, Pagination, listOf } from './common.js';
import { ArtifactTypeRef, IntakeField, WorkflowLifecycle } from './workflow-definition.js';

export const CatalogWorkflowSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    purpose: z.string(),
    artifactClass: z.string(),
    outputType: z.string().nullable(),
    version: z.string(),
    ...WorkflowLifecycle,
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
  .openapi('Artifact', {
    example: {
      id: 'artifact-8d2f4b6a',
      runId: 'run-3f9a1c2e',
      templateId: 'plan-research-report',
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
      title: 'Urban beekeeping: a research report',
      status: 'ready',
      artifactClass: 'research',
      artifactType: 'research-report',
      version: 1,
      content: {
        type: 'research-report',
        title: 'Urban beekeeping: a research report',
        summary: 'City hives thrive on varied forage; the main risks are swarming and neighbours.',
        sections: [{ heading: 'Forage', body: 'Parks, gardens and street trees flower in sequence from March to October.' }],
        sources: ['https://www.bbka.org.uk/urban-beekeeping'],
      },
      qa: {
        status: 'passed',
        checks: [{ id: 'sources-cited', label: 'Every section cites a source', status: 'pass', detail: '1 of 1 sections cite a source' }],
      },
      createdAt: '2026-11-26T10:15:50.301Z',
      sourceReportArtifactId: null,
    },
  });

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

export const ArtifactList = listOf(Artifact, 'ArtifactList');

export const CatalogList = listOf(CatalogWorkflowSummary, 'CatalogList');

export const ModelList = listOf(Model, 'ModelList');
