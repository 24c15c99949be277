import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBuiltinWorkflows } from '../src/index.js';

describe('built-in workflow files', () => {
  it('all pass the workflow schema and the publishing rules', () => {
    const { workflows, problems } = readBuiltinWorkflows();
    expect(problems).toEqual([]);
    expect(workflows.map((w) => w.definition.id)).toContain('plan-research-report');
  });

  it('refuse a broken file with every problem named', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-'));
    mkdirSync(path.join(dir, 'make-thing'));
    writeFileSync(path.join(dir, 'make-thing', '2026.11.01.json'), JSON.stringify({ id: 'make-thing', name: 'x' }));
    mkdirSync(path.join(dir, 'plan-bad'));
    writeFileSync(path.join(dir, 'plan-bad', '2026.11.01.json'), '{ not json');
    const { workflows, problems } = readBuiltinWorkflows(dir);
    expect(workflows).toEqual([]);
    expect(problems.map((p) => p.file).sort()).toEqual(['make-thing/2026.11.01.json', 'plan-bad/2026.11.01.json']);
    const shape = problems.find((p) => p.file.startsWith('make-thing'))!;
    expect(shape.errors.some((e) => e.startsWith('artifactClass'))).toBe(true);
    expect(shape.errors.some((e) => e.startsWith('runtimeSteps'))).toBe(true);
  });
});
