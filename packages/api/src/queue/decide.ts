import type { z } from '@hono/zod-openapi';
import { type DecisionOutcome, decideRun } from '@atelier/db';
import { QueueDecisionEntry, type QueueDecisionRequest } from '@atelier/contracts/queue';
import { ApiError, fail, issueEntries } from '../errors.js';
import { visibleRun } from '../runs/visible-run.js';
import type { Caller } from '../caller.js';

type Refusal = Extract<DecisionOutcome, { ok: false }>['refusal'];

/** A refused decision as the contract's error: 409 for the run's state, 422 for a bad patch. */
export function refusalError(refusal: Refusal): ApiError {
  switch (refusal.kind) {
    case 'not_found':
      return fail.notFound('run', refusal.runId);
    case 'invalid_transition':
      return fail.invalidTransition(refusal.message, { status: refusal.status });
    case 'gate_mismatch':
      return fail.code('gate_mismatch', { gateId: refusal.gateId, reviewGateId: refusal.reviewGateId, message: refusal.message });
    case 'approval_blocked':
      return fail.code('approval_blocked', { checks: refusal.checks, message: refusal.message });
    case 'hold_patch_invalid':
      return fail.code('hold_patch_invalid', { missing: refusal.missing, extra: refusal.extra, message: refusal.message });
    case 'hold_value_invalid':
      return fail.code('hold_value_invalid', { fields: refusal.fields, errors: refusal.errors, message: refusal.message });
  }
}

/**
 * Applies one decision for the caller: the run must be visible to them (404 otherwise, 403 for a key
 * bound to another workspace); any member of its workspace may decide. Throws the ApiError the single
 * endpoint answers with; returns the run's new status.
 */
export async function decideOne(caller: Caller, runId: string, body: z.infer<typeof QueueDecisionRequest>): Promise<string> {
  const { principal } = caller;
  const { run } = await visibleRun(caller, runId);
  const outcome = await decideRun(caller.services.db, {
    runId: run.id,
    decision: body.decision,
    note: body.note ?? null,
    patch: body.patch ?? null,
    gateId: body.gateId ?? null,
    decidedBy: principal.userId,
    decidedVia: principal.via,
  });
  if (!outcome.ok) throw refusalError(outcome.refusal);
  caller.services.dispatcher?.wake();
  return outcome.run.status;
}

export type BatchResult =
  | { runId: string | null; ok: true; status: string }
  | { runId: string | null; ok: false; statusCode: number; detail: unknown };

/**
 * One entry of a batch, validated and applied on its own: a malformed entry gets the 422 validation
 * detail (loc under body.decisions[index]), a refused one the detail the single endpoint would give.
 */
export async function decideEntry(caller: Caller, entry: unknown, index: number): Promise<BatchResult> {
  const raw = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
  const runId = typeof raw.runId === 'string' ? raw.runId : null;
  const parsed = QueueDecisionEntry.safeParse(entry);
  if (!parsed.success) {
    // The same `{ type, loc, msg, input }` entries as the gateway's 422, located inside the batch.
    return { runId, ok: false, statusCode: 422, detail: issueEntries(parsed.error, entry, ['body', 'decisions', index]) };
  }
  try {
    const status = await decideOne(caller, parsed.data.runId, parsed.data);
    return { runId, ok: true, status };
  } catch (err) {
    if (err instanceof ApiError) return { runId, ok: false, statusCode: err.status, detail: err.detail };
    throw err;
  }
}
