import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { TOOLS_DIR, temporalSettings } from '../src/stack/paths.js';
import { dynamicConfigYaml, ensureTemporalServer } from '../src/stack/real-temporal-server.js';

const run = promisify(execFile);

describe('the real Temporal Server of `atelier stack production`', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('gives the server the dev server’s dynamic config, each value unconstrained', () => {
    expect(dynamicConfigYaml({ 'matching.enableFairness': true, 'limit.numPendingChildExecutions.error': 2000 })).toBe(
      'matching.enableFairness:\n  - value: true\n    constraints: {}\nlimit.numPendingChildExecutions.error:\n  - value: 2000\n    constraints: {}\n',
    );
  });

  it('refuses a TEMPORAL_SERVER_PATH that names no file, rather than building another release', async () => {
    process.env.TEMPORAL_SERVER_PATH = '/nonexistent/temporal-server';
    await expect(ensureTemporalServer()).rejects.toThrow(/TEMPORAL_SERVER_PATH points at \/nonexistent\/temporal-server/);
  });

  // Only where the release was built once (it takes minutes): the npm test run never builds it.
  const server = path.join(TOOLS_DIR, `temporal-server-${temporalSettings().server.version.replace(/^v/, '')}`, 'bin', 'temporal-server');
  it.skipIf(!existsSync(server))('writes a dynamic config file the pinned release accepts, with only known keys but one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atelier-dynamic-config-'));
    try {
      const file = path.join(dir, 'dynamicconfig.yaml');
      writeFileSync(file, dynamicConfigYaml(temporalSettings().dynamicConfig));
      const { stdout } = await run(server, ['validate-dynamic-config', file]);
      expect(stdout).not.toMatch(/error:/);
      // 1.32 dropped matching.enableMigration (docs/operations.md, Priority and fair shares): a warning, not an error.
      expect(stdout.match(/warning: .*/g) ?? []).toEqual(['warning: unregistered key "matching.enablemigration"']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
