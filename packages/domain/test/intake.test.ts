import { describe, expect, it } from 'vitest';
import type { IntakeField } from '@atelier/contracts/workflow-definition';
import { resolveIntake } from '../src/intake.js';

const fields: IntakeField[] = [
  { name: 'topic', type: 'string', required: true },
  { name: 'depth', type: 'enum', options: ['brief', 'standard'], default: 'standard' },
  { name: 'seconds', type: 'integer', default: 4 },
  { name: 'ratio', type: 'number' },
  { name: 'loud', type: 'boolean' },
  { name: 'clips', type: 'array' },
  { name: 'meta', type: 'object' },
  { name: 'source', type: 'artifactReference', artifactClass: 'research' },
];

describe('intake resolution', () => {
  it('applies defaults and keeps what was sent', () => {
    const r = resolveIntake(fields, { topic: 'bees', seconds: 8 });
    expect(r).toEqual({ ok: true, intake: { topic: 'bees', depth: 'standard', seconds: 8 }, unknownKeys: [] });
  });

  it('reports every bad field at once, in plain language naming the field', () => {
    const r = resolveIntake(fields, { depth: 'deep', seconds: 1.5, ratio: 'wide', loud: 'yes', clips: {}, meta: [], source: 'report-1' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      'topic is required',
      'depth must be one of brief, standard (got "deep")',
      'seconds must be a whole number (got 1.5)',
      'ratio must be a number (got "wide")',
      'loud must be true or false (got "yes")',
      'clips must be a list (got {})',
      'meta must be an object (got [])',
      'source must be an artifact id such as artifact-1a2b (got "report-1")',
    ]);
  });

  it('treats blank required text as missing and null as absent', () => {
    const r = resolveIntake(fields, { topic: '   ', depth: null });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual(['topic is required']);
  });

  it('returns unknown keys without rejecting them, and leaves them out of the recorded intake', () => {
    const r = resolveIntake(fields, { topic: 'bees', colour: 'red' });
    expect(r).toMatchObject({ ok: true, unknownKeys: ['colour'] });
    if (r.ok) expect(r.intake).not.toHaveProperty('colour');
  });

  it('rejects non-finite numbers', () => {
    const r = resolveIntake(fields, { topic: 'x', ratio: Number.POSITIVE_INFINITY });
    expect(r.ok).toBe(false);
  });
});
