import { describe, expect, it } from 'vitest';
import { readPath, renderTemplate } from '../src/run-context';

const ctx = {
  intake: { topic: 'bees', n: 3 },
  inputs: { sourceReport: { summary: 'S' } },
  steps: { 'step-2': { url: 'https://x/y', list: ['a', 'b'] } },
};

describe('the run context', () => {
  it('reads dotted references, with bare step ids as shorthand for steps', () => {
    expect(readPath(ctx, 'step-2.url')).toBe('https://x/y');
    expect(readPath(ctx, 'steps.step-2.url')).toBe('https://x/y');
    expect(readPath(ctx, 'inputs.sourceReport.summary')).toBe('S');
    expect(readPath(ctx, 'intake.topic')).toBe('bees');
    expect(readPath(ctx, 'step-9.url')).toBeUndefined();
    expect(readPath(ctx, 'intake.topic.deeper')).toBeUndefined();
  });

  it('renders templates, with objects as JSON and missing values as empty text', () => {
    expect(renderTemplate('About {{ intake.topic }} ({{intake.n}}): {{steps.step-2.list}} {{intake.none}}!', ctx)).toBe(
      'About bees (3): ["a","b"] !',
    );
  });
});
