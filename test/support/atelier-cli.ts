import { spawn } from 'node:child_process';
import { PROJECT_ROOT, sourceCliArgs } from '@atelier/cli/stack/paths';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a test's `atelier` processes point: the gateway, the API key, and an empty HOME of the test's own. */
export interface CliTarget {
  url: string;
  apiKey: string;
  home: string;
}

/** The real `atelier` command as a child process (compiled from source through tsx). */
export function runAtelier(target: CliTarget, args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, sourceCliArgs(...args), {
      cwd: PROJECT_ROOT,
      // HOME points at an empty directory: no saved login of the machine's user leaks in.
      env: { ...process.env, HOME: target.home, XDG_CONFIG_HOME: '', ATELIER_URL: target.url, ATELIER_API_KEY: target.apiKey, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
