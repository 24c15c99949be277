/**
 * The rules of a review decision, kept pure so that the repository applies them inside its transaction
 * and tests can judge them without a database (service spec "Review queue"; decisions §4).
 */
import type { QaCheck } from './qa.js';

export const REVIEW_DECISIONS = ['approve', 'reject', 'request_changes'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** A field an approval gate holds until the reviewer supplies it (decisions §4, `holdFields`). */
export interface HoldFieldSpec {
  name: string;
  type: 'string' | 'boolean' | 'integer' | 'number' | 'enum';
  options?: string[];
}

/** The statuses a decision settles a run in. */
export type DecidedRunStatus = 'completed' | 'rejected' | 'changes_requested';

/** Where each decision takes the run and its artifact. */
export const DECISION_OUTCOMES: Record<ReviewDecision, { runStatus: DecidedRunStatus; artifactStatus: string }> = {
  approve: { runStatus: 'completed', artifactStatus: 'approved' },
  reject: { runStatus: 'rejected', artifactStatus: 'rejected' },
  // Changes requested: the work is neither accepted nor refused, and nobody is asked to review it again
  // as it stands, so it goes back to being a draft (not `review`, which would leave it looking queued).
  request_changes: { runStatus: 'changes_requested', artifactStatus: 'draft' },
};

/** Whether a run's status is one a review decision settles it in (`completed` is an approval's too). */
export function isDecidedRunStatus(status: string): status is DecidedRunStatus {
  return Object.values(DECISION_OUTCOMES).some((o) => o.runStatus === status);
}

export type ReviewRefusal =
  | { kind: 'invalid_transition'; status: string; message: string }
  | { kind: 'gate_mismatch'; gateId: string; reviewGateId: string | null; message: string }
  | { kind: 'approval_blocked'; checks: QaCheck[]; message: string }
  | { kind: 'hold_patch_invalid'; missing: string[]; extra: string[]; message: string }
  | { kind: 'hold_value_invalid'; fields: string[]; errors: string[]; message: string };

/** The QA checks that stand in the way of an approval: any at `fail` or still `pending`. */
export function approvalBlockers(qa: unknown): QaCheck[] {
  const checks = qa !== null && typeof qa === 'object' ? (qa as { checks?: unknown }).checks : undefined;
  if (!Array.isArray(checks)) return [];
  return checks.filter((c): c is QaCheck => c !== null && typeof c === 'object' && (c.status === 'fail' || c.status === 'pending'));
}

/** Reads a run's stored hold fields, ignoring anything that is not a field declaration. */
export function holdFieldsOf(value: unknown): HoldFieldSpec[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (f): f is HoldFieldSpec => f !== null && typeof f === 'object' && typeof f.name === 'string' && typeof f.type === 'string',
  );
}

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

function valueError(field: HoldFieldSpec, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : `${field.name} must be a string (got ${show(value)})`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${field.name} must be true or false (got ${show(value)})`;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : `${field.name} must be a whole number (got ${show(value)})`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `${field.name} must be a number (got ${show(value)})`;
    case 'enum': {
      const options = field.options ?? [];
      return typeof value === 'string' && options.includes(value)
        ? undefined
        : `${field.name} must be one of ${options.join(', ')} (got ${show(value)})`;
    }
    default:
      return `${field.name} has an unknown type ${show(field.type)}`;
  }
}

/**
 * Checks the patch that releases a hold: exactly the declared fields (none missing, none extra), each
 * of its declared type, enum values among the options. A run without a hold accepts no patch fields.
 */
export function checkHoldPatch(
  fields: HoldFieldSpec[],
  patch: Record<string, unknown> | null | undefined,
): { ok: true; hold: Record<string, unknown> } | { ok: false; refusal: ReviewRefusal } {
  const given = patch ?? {};
  const declared = new Set(fields.map((f) => f.name));
  const missing = fields.map((f) => f.name).filter((name) => !Object.hasOwn(given, name));
  const extra = Object.keys(given).filter((name) => !declared.has(name));
  if (missing.length || extra.length) {
    const parts = [
      missing.length ? `missing ${missing.join(', ')}` : '',
      extra.length ? `not declared by the hold: ${extra.join(', ')}` : '',
    ].filter(Boolean);
    const expected = fields.length ? `exactly the held fields (${[...declared].join(', ')})` : 'no fields (this gate holds none)';
    return {
      ok: false,
      refusal: { kind: 'hold_patch_invalid', missing, extra, message: `the patch must supply ${expected}: ${parts.join('; ')}` },
    };
  }
  const bad = fields
    .map((f) => [f.name, valueError(f, given[f.name])] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined);
  if (bad.length) {
    return {
      ok: false,
      refusal: {
        kind: 'hold_value_invalid',
        fields: bad.map(([name]) => name),
        errors: bad.map(([, error]) => error),
        message: `uncategorized value: ${bad.map(([, error]) => error).join('; ')}`,
      },
    };
  }
  return { ok: true, hold: Object.fromEntries(fields.map((f) => [f.name, given[f.name]])) };
}

export interface ReviewState {
  runId: string;
  status: string;
  reviewGateId: string | null;
  holdFields: unknown;
  qa: unknown;
}

export interface DecisionRequest {
  decision: ReviewDecision;
  patch?: Record<string, unknown> | null;
  gateId?: string | null;
}

export type DecisionJudgement =
  | { ok: true; runStatus: string; artifactStatus: string; hold: Record<string, unknown> | null }
  | { ok: false; refusal: ReviewRefusal };

/**
 * Judges a decision on a run as it stands. State conflicts (409) come before a bad patch (422): the run
 * must be in review, under the gate named (when one is), and an approval needs every QA check passed and
 * a patch that releases the hold exactly. Reject and request_changes take the patch only as a note for
 * the ledger; nothing is released.
 */
export function judgeDecision(state: ReviewState, request: DecisionRequest): DecisionJudgement {
  if (state.status !== 'review') {
    return {
      ok: false,
      refusal: { kind: 'invalid_transition', status: state.status, message: `run ${state.runId} is ${state.status}, not in review` },
    };
  }
  if (request.gateId && request.gateId !== state.reviewGateId) {
    const waiting = state.reviewGateId ? `gate "${state.reviewGateId}"` : 'no named gate';
    return {
      ok: false,
      refusal: {
        kind: 'gate_mismatch',
        gateId: request.gateId,
        reviewGateId: state.reviewGateId,
        message: `run ${state.runId} waits on ${waiting}, not "${request.gateId}"`,
      },
    };
  }
  const outcome = DECISION_OUTCOMES[request.decision];
  if (request.decision !== 'approve') return { ok: true, ...outcome, hold: null };
  const blockers = approvalBlockers(state.qa);
  if (blockers.length) {
    return {
      ok: false,
      refusal: {
        kind: 'approval_blocked',
        checks: blockers,
        message: `approval is blocked by QA: ${blockers.map((c) => `${c.label || c.id} is ${c.status}`).join('; ')}`,
      },
    };
  }
  const fields = holdFieldsOf(state.holdFields);
  const hold = checkHoldPatch(fields, request.patch);
  if (!hold.ok) return hold;
  return { ok: true, ...outcome, hold: fields.length ? hold.hold : null };
}
