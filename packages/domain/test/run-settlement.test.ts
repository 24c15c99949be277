import { describe, expect, it } from 'vitest';
import { ENGINE_ERROR, QA_HOLD, type SettlementFacts, decideRunSettlement } from '../src/run-settlement.js';

const report = {
  title: 'Rivers',
  summary: 'A summary of rivers.',
  sections: [{ heading: 'One', body: 'Body text.' }],
  sources: [{ title: 'A source', url: 'https://example.com' }],
};
const definition = (gates: SettlementFacts['definition']['gates'] = [], gateOnLast?: string): SettlementFacts['definition'] => ({
  runtimeSteps: [{ id: 's1' }, { id: 's2' }, { id: 's3', ...(gateOnLast ? { gateId: gateOnLast } : {}) }],
  gates,
  artifactSchema: { artifactType: 'research-report' },
});
const step = (stepIndex: number, status: string, output: unknown = null, extra: Record<string, unknown> = {}) => ({
  stepIndex,
  status,
  output,
  ...extra,
});
// A research report without sections fails its QA (see qa.ts): the hold must apply.
const failingQa = { title: 'Rivers' };

describe('decideRunSettlement with the workflow decision', () => {
  it('takes a completed decision with a passing QA as completed, artifact ready', () => {
    const s = decideRunSettlement({
      definition: definition(),
      steps: [],
      decision: { status: 'completed', artifact: { content: report } },
    });
    expect(s).toMatchObject({ status: 'completed', errorCode: null, review: null, artifact: { status: 'ready', content: report } });
  });

  it('holds a completed artifact whose QA failed for review (QA hold)', () => {
    const s = decideRunSettlement({
      definition: definition(),
      steps: [],
      decision: { status: 'completed', artifact: { content: failingQa } },
    });
    expect(s.artifact?.qa.status).toBe('failed');
    expect(s).toMatchObject({ status: 'review', review: QA_HOLD, artifact: { status: 'review' } });
  });

  it('keeps a review decision with its gate, and writes no artifact for failed or cancelled', () => {
    const review = { gateId: 'g', gateName: 'Client approval', holdFields: null };
    expect(
      decideRunSettlement({ definition: definition(), steps: [], decision: { status: 'review', artifact: { content: report }, review } }),
    ).toMatchObject({ status: 'review', review, artifact: { status: 'review' } });
    expect(
      decideRunSettlement({ definition: definition(), steps: [], decision: { status: 'failed', errorCode: 'step_invalid', error: 'bad' } }),
    ).toEqual({
      status: 'failed',
      error: 'bad',
      errorCode: 'step_invalid',
      failureDetails: null,
      artifact: null,
      review: null,
    });
    expect(decideRunSettlement({ definition: definition(), steps: [], decision: { status: 'cancelled' } })).toMatchObject({
      status: 'cancelled',
      artifact: null,
    });
  });
});

describe('decideRunSettlement from the record alone', () => {
  it('completes from the last step output when every step completed or was skipped', () => {
    const s = decideRunSettlement({
      definition: definition(),
      steps: [step(0, 'skipped', 'x'), step(1, 'completed', 'y'), step(2, 'completed', report)],
    });
    expect(s).toMatchObject({ status: 'completed', artifact: { content: report, status: 'ready' } });
  });

  it('applies the same QA hold as the workflow', () => {
    const s = decideRunSettlement({
      definition: definition(),
      steps: [step(0, 'completed'), step(1, 'completed'), step(2, 'completed', failingQa)],
    });
    expect(s).toMatchObject({ status: 'review', review: QA_HOLD, artifact: { status: 'review' } });
  });

  it('holds an approval-gated run for review with its gate', () => {
    const gates = [
      { id: 'client', name: 'Client approval', type: 'approval' as const, holdFields: [{ path: 'title', label: 'Title' }] as never },
    ];
    const s = decideRunSettlement({
      definition: definition(gates, 'client'),
      steps: [step(0, 'completed'), step(1, 'completed'), step(2, 'completed', report)],
    });
    expect(s).toMatchObject({
      status: 'review',
      review: { gateId: 'client', gateName: 'Client approval', holdFields: [{ path: 'title', label: 'Title' }] },
      artifact: { status: 'review' },
    });
  });

  it('fails an unfinished run as the engine’s fault, saying how far it got', () => {
    const s = decideRunSettlement({
      definition: definition(),
      steps: [step(0, 'completed'), step(1, 'pending')],
      closedBecause: 'its workflow execution closed (TERMINATED) before settling the run',
    });
    expect(s).toMatchObject({
      status: 'failed',
      errorCode: ENGINE_ERROR,
      artifact: null,
      failureDetails: { stepsCompleted: 1, stepsTotal: 3 },
    });
    expect(s.error).toBe('its workflow execution closed (TERMINATED) before settling the run; 1 of 3 steps had completed');
  });

  it('names the failed step when one failed without the run being settled', () => {
    const s = decideRunSettlement({
      definition: definition(),
      steps: [step(0, 'failed', null, { error: 'the intake mapped is invalid', errorCode: 'step_invalid' })],
    });
    expect(s).toMatchObject({
      status: 'failed',
      errorCode: ENGINE_ERROR,
      failureDetails: { failedStepIndex: 0, stepErrorCode: 'step_invalid' },
    });
    expect(s.error).toMatch(/step 1 \("s1"\) had failed: the intake mapped is invalid/);
  });

  it('settles cancelled when a cancel was requested', () => {
    expect(decideRunSettlement({ definition: definition(), steps: [step(0, 'completed')], cancelRequested: true })).toMatchObject({
      status: 'cancelled',
      artifact: null,
    });
  });
});
