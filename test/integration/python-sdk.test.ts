import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';
import { PYTHON_CLIENT_DIR, ensurePythonClientVenv } from '../support/python-client';

/**
 * The Python client (clients/python) as a user gets it: `pip install`ed (not editable) into a venv under .tools/
 * that is kept while the package's files are unchanged, then its pytest suite run against a real stack (gateway,
 * worker, Temporal, PostgreSQL) with the gateway's URL and an owner's API key in the environment.
 */
let h: Harness;
let owner: TestUser;
let apiKey: string;
let python: string;

beforeAll(async () => {
  [{ python }, h] = await Promise.all([ensurePythonClientVenv((line) => console.log(line)), startHarness()]);
  owner = await registerUser(h, 'Pythonista');
  apiKey = await createApiKey(h, owner);
}, 300_000);
afterAll(() => h?.stop());

function pytest(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-m', 'pytest', ...args], {
      cwd: PYTHON_CLIENT_DIR,
      env: {
        ...process.env,
        ATELIER_URL: h.url,
        ATELIER_API_KEY: apiKey,
        ATELIER_WORKSPACE_ID: owner.workspaceId,
        // Nothing written beside the sources: no __pycache__, no .pytest_cache.
        PYTHONDONTWRITEBYTECODE: '1',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('clients/python against the real stack', () => {
  it('passes its pytest suite', async () => {
    const started = Date.now();
    const { code, output } = await pytest([path.join(PYTHON_CLIENT_DIR, 'tests'), '-p', 'no:cacheprovider', '-q', '-rfEs'], 150_000);
    console.log(
      `pytest clients/python/tests: ${((Date.now() - started) / 1000).toFixed(1)} s\n${output.split('\n').slice(-15).join('\n')}`,
    );
    expect(code, output).toBe(0);
    // Every test ran: none skipped or deselected.
    expect(output, output).toMatch(/\b\d+ passed\b/);
    expect(output, output).not.toMatch(/\b(skipped|deselected|xfailed|error)\b/);
  }, 180_000);
});
