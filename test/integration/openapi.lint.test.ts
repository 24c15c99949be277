import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, startHarness } from '../support/harness';

/** The served /openapi.json passes an independent linter (Redocly CLI's recommended rules) with 0 errors. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(() => h?.stop());

describe('/openapi.json', () => {
  it('lints with 0 errors under redocly lint', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify((await h.request('GET', '/openapi.json')).body));
      const bin = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'redocly');
      const run = await promisify(execFile)(bin, ['lint', file, '--format=json'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
        (err) => err,
      );
      const report = JSON.parse(run.stdout);
      const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
      expect(errors, JSON.stringify(errors.slice(0, 5), null, 2)).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
