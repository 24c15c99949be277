import { describe, expect, it } from 'vitest';
import { STEP_KINDS, STEP_KIND_TRAITS } from '@atelier/contracts/workflow-definition';
import { STEP_EXECUTORS } from '../src/activities/steps/index.js';

describe('the step registry', () => {
  it('has an executor for exactly the kinds the contract says the executeStep activity runs', () => {
    const byActivity = STEP_KINDS.filter((k) => STEP_KIND_TRAITS[k].runBy === 'activity').sort();
    expect(Object.keys(STEP_EXECUTORS).sort()).toEqual(byActivity);
    expect(byActivity).not.toContain('subWorkflow');
  });
});
