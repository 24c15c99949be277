import { describe, expect, it } from 'vitest';
import { contextFor, readPath, renderTemplate } from '../src/run-context.js';
import { stepReads } from '../src/step-kinds.js';

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

describe('contextFor: what a step is sent', () => {
  const context = {
    intake: { topic: 'tea', audience: 'kids', notes: 'long notes' },
    inputs: { brief: { text: 'b' } },
    steps: { 'step-1': { outline: ['a'] }, 'step-2': { big: 'x'.repeat(100) } },
  };

  it('keeps only the entries its prompt, params and inputPath name, and reads the same through them', () => {
    const slice = contextFor({ prompt: 'Write about {{intake.topic}} from {{steps.step-1.outline}}', whole: false }, context);
    expect(slice).toEqual({ intake: { topic: 'tea' }, inputs: {}, steps: { 'step-1': { outline: ['a'] } } });
    const template = 'About {{ intake.topic }}: {{step-1.outline}} / {{inputs.brief.text}}';
    const reads = { prompt: template, params: { p: '{{inputs.brief}}' }, inputPath: 'step-2', whole: false };
    expect(renderTemplate(template, contextFor(reads, context))).toBe(renderTemplate(template, context));
    expect(contextFor(reads, context).steps).toHaveProperty('step-2');
  });

  it('sends the whole intake for the default prompt and for a safety gate, and everything when the step may read anything', () => {
    expect(contextFor({ whole: false }, context).intake).toEqual(context.intake);
    expect(contextFor({ prompt: '{{steps.step-1}}', whole: false, wholeIntake: true }, context).intake).toEqual(context.intake);
    expect(contextFor({ prompt: '{{intake.topic}}', whole: true }, context)).toBe(context);
    // The slice is built in fresh objects: the run's context is never written (frozen here, so a write throws).
    const frozen = {
      intake: Object.freeze({ ...context.intake }),
      inputs: Object.freeze({ ...context.inputs }),
      steps: Object.freeze({ ...context.steps }),
    };
    const slice = contextFor(
      { prompt: '{{intake}} {{intake.topic}} {{inputs}} {{inputs.brief}}', whole: false, wholeIntake: true },
      frozen,
    );
    expect(slice.intake).toEqual(context.intake);
    expect(slice.intake).not.toBe(frozen.intake);
  });

  it('decides by kind: code and agents read anything; tools and images without declared input too', () => {
    const step = (kind: string, extra = {}) => ({ id: 's', name: 's', kind, ...extra }) as never;
    expect(stepReads(step('code', { function: 'f' })).whole).toBe(true);
    expect(stepReads(step('agent')).whole).toBe(true);
    expect(stepReads(step('tool', { tool: 't' })).whole).toBe(true);
    expect(stepReads(step('tool', { tool: 't', inputPath: 'intake.url' })).whole).toBe(false);
    expect(stepReads(step('llm', { prompt: '{{intake.topic}}' })).whole).toBe(false);
    expect(stepReads(step('llm'), { type: 'safety' }).wholeIntake).toBe(true);
  });
});
