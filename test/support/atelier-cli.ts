import { spawn } from 'node:child_process';
import { COMPILED_CLI, PROJECT_ROOT, sourceCliArgs } from '@atelier/cli/stack/paths';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Node's arguments for `atelier …`: the compiled build when `npm test` has just built it (a command
 * starts in about a second instead of five under tsx), the TypeScript sources when a file runs alone.
 */
export function atelierArgs(...args: string[]): string[] {
  return process.env.ATELIER_TEST_BUILD === 'compiled' ? [COMPILED_CLI, ...args] : sourceCliArgs(...args);
}

/**
 * The real `atelier` command as a child process, with `env` over this process's environment. Callers
 * point HOME at an empty directory, so that no saved login of the machine's user leaks in.
 */
export function runAtelier(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, atelierArgs(...args), {
      cwd: PROJECT_ROOT,
      env: { ...process.env, XDG_CONFIG_HOME: '', ...env },
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
