import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { localTextAnswer, subjectOf } from '../src/providers/local/text.js';

const schema = {
  type: 'object',
  required: ['title', 'summary', 'sections', 'sources', 'score', 'ok', 'tone'],
  properties: {
    title: { type: 'string', minLength: 3, maxLength: 80 },
    summary: { type: 'string', minLength: 20 },
    sections: {
      type: 'array',
      minItems: 3,
      maxItems: 5,
      items: {
        type: 'object',
        required: ['heading', 'body'],
        properties: { heading: { type: 'string' }, body: { type: 'string', minLength: 20 } },
      },
    },
    sources: { type: 'array', minItems: 1, items: { type: 'string' } },
    score: { type: 'integer', minimum: 1, maximum: 5 },
    ok: { type: 'boolean' },
    tone: { enum: ['calm', 'bold'] },
  },
};

describe('the local text model', () => {
  it('is deterministic for the same prompt and seed, and varies with either', () => {
    const a = localTextAnswer({ prompt: 'Write about "tide pools"', seed: 's1' });
    expect(localTextAnswer({ prompt: 'Write about "tide pools"', seed: 's1' })).toEqual(a);
    expect(localTextAnswer({ prompt: 'Write about "tide pools"', seed: 's2' }).text).not.toBe(a.text);
    expect(localTextAnswer({ prompt: 'Write about "deserts"', seed: 's1' }).text).not.toBe(a.text);
  });

  it('answers a jsonSchema with a conforming value written from the prompt subject', () => {
    const validate = new Ajv2020({ strict: false }).compile(schema);
    for (const topic of ['tide pools', 'jazz history', 'soil', 'a very long topic about the economics of lighthouse keeping']) {
      const answer = localTextAnswer({ prompt: `Research "${topic}" now`, seed: 'x', jsonSchema: schema });
      const value = JSON.parse(answer.text);
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      expect(value.title.toLowerCase()).toContain(topic.slice(0, 20).toLowerCase());
      expect(answer.usage.inputTokens).toBeGreaterThan(0);
      expect(answer.usage.outputTokens).toBeGreaterThan(0);
    }
  });

  it('takes the first quoted phrase as its subject, else the first words', () => {
    expect(subjectOf('Outline "urban bees" for "later"')).toBe('urban bees');
    expect(subjectOf('plain prompt with no quotes at all here today ok')).toBe('plain prompt with no quotes at all here');
  });
});
