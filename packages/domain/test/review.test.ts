import { describe, expect, it } from 'vitest';
import { type HoldFieldSpec, type ReviewState, approvalBlockers, checkHoldPatch, holdFieldsOf, judgeDecision } from '../src/review.js';

const usage: HoldFieldSpec = { name: 'usage', type: 'enum', options: ['web', 'print', 'social', 'internal'] };
const passed = { status: 'passed', checks: [{ id: 'a', label: 'Looks right', status: 'pass', detail: '' }] };
const state = (over: Partial<ReviewState> = {}): ReviewState => ({
  runId: 'run-00000001',
  status: 'review',
  reviewGateId: 'client-approval',
  holdFields: [usage],
  qa: passed,
  ...over,
});

describe('approval blockers', () => {
  it('are the checks at fail or pending, in order', () => {
    const qa = {
      status: 'failed',
      checks: [
        { id: 'a', label: 'A', status: 'pass', detail: '' },
        { id: 'b', label: 'B', status: 'fail', detail: 'too dark' },
        { id: 'c', label: 'C', status: 'pending', detail: '' },
      ],
    };
    expect(approvalBlockers(qa).map((c) => c.id)).toEqual(['b', 'c']);
  });

  it('are none for an empty or missing QA record', () => {
    expect(approvalBlockers({ status: 'passed', checks: [] })).toEqual([]);
    expect(approvalBlockers(null)).toEqual([]);
    expect(approvalBlockers({ status: 'x' })).toEqual([]);
  });
});

describe('hold patch', () => {
  it('accepts exactly the declared fields with values of their types', () => {
    const fields: HoldFieldSpec[] = [
      usage,
      { name: 'credit', type: 'string' },
      { name: 'paid', type: 'boolean' },
      { name: 'copies', type: 'integer' },
      { name: 'fee', type: 'number' },
    ];
    const patch = { usage: 'web', credit: 'Ana', paid: false, copies: 3, fee: 12.5 };
    expect(checkHoldPatch(fields, patch)).toEqual({ ok: true, hold: patch });
  });

  it('names missing and extra fields together', () => {
    const r = checkHoldPatch([usage, { name: 'credit', type: 'string' }], { usage: 'web', colour: 'red' });
    expect(r).toMatchObject({ ok: false, refusal: { kind: 'hold_patch_invalid', missing: ['credit'], extra: ['colour'] } });
    if (!r.ok) expect(r.refusal.message).toMatch(/missing credit; not declared by the hold: colour/);
  });

  it('treats an absent patch as every field missing', () => {
    expect(checkHoldPatch([usage], undefined)).toMatchObject({
      ok: false,
      refusal: { kind: 'hold_patch_invalid', missing: ['usage'], extra: [] },
    });
  });

  it('accepts no fields when nothing is held', () => {
    expect(checkHoldPatch([], {})).toEqual({ ok: true, hold: {} });
    expect(checkHoldPatch([], { usage: 'web' })).toMatchObject({
      ok: false,
      refusal: { kind: 'hold_patch_invalid', missing: [], extra: ['usage'] },
    });
  });

  it('refuses uncategorized and wrongly typed values, naming each field', () => {
    const fields: HoldFieldSpec[] = [
      usage,
      { name: 'copies', type: 'integer' },
      { name: 'paid', type: 'boolean' },
      { name: 'fee', type: 'number' },
      { name: 'credit', type: 'string' },
    ];
    const r = checkHoldPatch(fields, { usage: 'billboard', copies: 1.5, paid: 'yes', fee: '3', credit: 7 });
    expect(r.ok).toBe(false);
    if (r.ok || r.refusal.kind !== 'hold_value_invalid') throw new Error('expected hold_value_invalid');
    expect(r.refusal.fields).toEqual(['usage', 'copies', 'paid', 'fee', 'credit']);
    expect(r.refusal.errors).toEqual([
      'usage must be one of web, print, social, internal (got "billboard")',
      'copies must be a whole number (got 1.5)',
      'paid must be true or false (got "yes")',
      'fee must be a number (got "3")',
      'credit must be a string (got 7)',
    ]);
    expect(r.refusal.message).toMatch(/^uncategorized value: usage must be one of/);
  });

  it('refuses null as a value', () => {
    expect(checkHoldPatch([usage], { usage: null })).toMatchObject({
      ok: false,
      refusal: { kind: 'hold_value_invalid', fields: ['usage'] },
    });
  });

  it('reads stored hold fields tolerantly', () => {
    expect(holdFieldsOf(null)).toEqual([]);
    expect(holdFieldsOf([usage, 'junk', { name: 1 }])).toEqual([usage]);
  });
});

describe('judging a decision', () => {
  it('approves into completed and approved, releasing the hold', () => {
    expect(judgeDecision(state(), { decision: 'approve', patch: { usage: 'print' }, gateId: 'client-approval' })).toEqual({
      ok: true,
      runStatus: 'completed',
      artifactStatus: 'approved',
      hold: { usage: 'print' },
    });
  });

  it('approves a run without a hold with no patch and releases nothing', () => {
    expect(judgeDecision(state({ holdFields: null }), { decision: 'approve' })).toEqual({
      ok: true,
      runStatus: 'completed',
      artifactStatus: 'approved',
      hold: null,
    });
  });

  it('rejects and requests changes without looking at QA or the patch', () => {
    const failing = { status: 'failed', checks: [{ id: 'x', label: 'X', status: 'fail', detail: '' }] };
    expect(judgeDecision(state({ qa: failing }), { decision: 'reject', patch: { anything: 1 } })).toEqual({
      ok: true,
      runStatus: 'rejected',
      artifactStatus: 'rejected',
      hold: null,
    });
    expect(judgeDecision(state({ qa: failing }), { decision: 'request_changes' })).toEqual({
      ok: true,
      runStatus: 'changes_requested',
      artifactStatus: 'draft',
      hold: null,
    });
  });

  it('refuses a run that is not in review', () => {
    expect(judgeDecision(state({ status: 'completed' }), { decision: 'reject' })).toMatchObject({
      ok: false,
      refusal: { kind: 'invalid_transition', status: 'completed' },
    });
  });

  it('refuses a gate the run does not wait on', () => {
    const r = judgeDecision(state(), { decision: 'reject', gateId: 'legal-approval' });
    expect(r).toMatchObject({ ok: false, refusal: { kind: 'gate_mismatch', gateId: 'legal-approval', reviewGateId: 'client-approval' } });
    if (!r.ok) expect(r.refusal.message).toBe('run run-00000001 waits on gate "client-approval", not "legal-approval"');
  });

  it('blocks approval on a failing or pending check before looking at the patch', () => {
    const qa = { status: 'pending_review', checks: [{ id: 'p', label: 'Brand colours', status: 'pending', detail: 'not judged yet' }] };
    const r = judgeDecision(state({ qa }), { decision: 'approve' });
    expect(r).toMatchObject({ ok: false, refusal: { kind: 'approval_blocked', checks: [{ id: 'p', status: 'pending' }] } });
    if (!r.ok) expect(r.refusal.message).toBe('approval is blocked by QA: Brand colours is pending');
  });

  it('refuses an approval whose patch does not release the hold', () => {
    expect(judgeDecision(state(), { decision: 'approve', patch: { usage: 'billboard' } })).toMatchObject({
      ok: false,
      refusal: { kind: 'hold_value_invalid', fields: ['usage'] },
    });
    expect(judgeDecision(state(), { decision: 'approve', patch: {} })).toMatchObject({
      ok: false,
      refusal: { kind: 'hold_patch_invalid', missing: ['usage'] },
    });
  });
});
