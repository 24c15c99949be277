import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the folder holding pnpm-workspace.yaml above this file. */
export const PROJECT_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the Atelier project root (pnpm-workspace.yaml)');
    dir = parent;
  }
  return dir;
})();

export const TOOLS_DIR = path.join(PROJECT_ROOT, '.tools');

export interface TemporalSettings {
  cli: { pypiPackage: string; version: string; goModule: string; goVersion: string };
  /** The Temporal Server release the production-shaped stack builds and runs (real-temporal-server.ts). */
  server: { goModule: string; version: string };
  namespace: string;
  searchAttributes: Record<string, string>;
  dynamicConfig: Record<string, unknown>;
}

export function temporalSettings(): TemporalSettings {
  return JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'temporal', 'dev-server.json'), 'utf8')) as TemporalSettings;
}

/**
 * Node's arguments that run the `atelier` CLI from its TypeScript sources (tests, benches, `npm start`):
 * tsx compiles on the fly, and the `atelier-source` condition points workspace packages at `src/` rather
 * than the compiled `dist/` that production processes run.
 */
export function sourceCliArgs(...args: string[]): string[] {
  return ['--conditions=atelier-source', '--import', 'tsx', path.join(PROJECT_ROOT, 'packages/cli/src/main.ts'), ...args];
}

/** The compiled `atelier` CLI (`npm run build`), which production processes run with plain node. */
export const COMPILED_CLI = path.join(PROJECT_ROOT, 'packages', 'cli', 'dist', 'main.js');
