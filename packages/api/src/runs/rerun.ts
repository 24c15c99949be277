import type { z } from '@hono/zod-openapi';
import type { RerunCreateBody, RerunRequest } from '@atelier/contracts/run-actions';
import type { IdempotencyKey, RunRow } from '@atelier/db';
import type { CostEstimate } from '@atelier/domain';
import type { Caller } from '../caller.js';
import { createRun, createRunOnce, priceRun } from './create-run.js';
import { visibleRun } from './visible-run.js';

type Overrides = Omit<z.infer<typeof RerunRequest>, 'dryRun'>;
type RerunBody = z.infer<typeof RerunCreateBody>;

/**
 * The create body of a rerun of `original`: its workflow and pinned version, workspace, project, priority,
 * tags, metadata, intake and role bindings, with the request's intake keys and roles over them. The intake is the stored
 * one (defaults applied), so a default the original took stays what it was. A child of an order or of a
 * sub-workflow step is rerun as a standalone run of its workspace: the order's plan and cap, and the
 * parent's step, are settled and are not reopened by a run started after them.
 */
function rerunBody(original: RunRow, overrides: Overrides): RerunBody {
  return {
    templateId: original.template_id,
    workflowVersion: original.workflow_version,
    intake: { ...original.intake, ...overrides.intake },
    workspaceId: original.workspace_id,
    projectId: original.project_id,
    providers: { ...original.bindings, ...overrides.providers },
    ...(original.priority ? { priority: original.priority } : {}),
    // The same piece of work: whatever finds the original by its labels finds its reruns too.
    ...(original.tags.length > 0 ? { tags: original.tags } : {}),
    ...(Object.keys(original.metadata).length > 0 ? { metadata: original.metadata } : {}),
    rerunOf: original.id,
  };
}

/** The original as the caller may see it (404 otherwise, as for GET), and what rerunning it would create. */
async function planRerun(caller: Caller, runId: string, overrides: Overrides) {
  const { run } = await visibleRun(caller, runId);
  const body = rerunBody(run, overrides);
  return { body, origin: { version: body.workflowVersion, rerunOf: run.id } };
}

/**
 * POST /v1/runs/{run_id}/rerun: a new run made by createRun, as POST /v1/runs makes one (checks, estimate,
 * budgets), pinned to the original's version and linked to it by rerunOf. With an `Idempotency-Key` it is
 * created once, as POST /v1/runs with one is.
 */
export async function rerunRun(
  caller: Caller,
  runId: string,
  overrides: Overrides,
  key?: IdempotencyKey,
): Promise<{ row: RunRow; replayed: boolean }> {
  const { body, origin } = await planRerun(caller, runId, overrides);
  if (key) return createRunOnce(caller, body, key, origin);
  return { row: await createRun(caller, body, { origin }), replayed: false };
}

/** The rerun's dry run: the same refusals and budget judgement, nothing created; the estimate and the body it would create. */
export async function dryRunRerun(
  caller: Caller,
  runId: string,
  overrides: Overrides,
): Promise<{ estimate: CostEstimate; wouldCreate: RerunBody }> {
  const { body, origin } = await planRerun(caller, runId, overrides);
  return { estimate: await priceRun(caller, body, origin), wouldCreate: body };
}
