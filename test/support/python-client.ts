import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT, TOOLS_DIR } from '@atelier/cli/stack/paths';
import { ensurePypiTool } from './pypi-tool';

const run = promisify(execFile);

/**
 * The Python client (clients/python) and the pinned openapi-python-client that generates its models
 * (src/atelier/_generated) from the gateway's /openapi.json. The models are committed, like @atelier/client's
 * schema.d.ts: `pip install` then needs neither the generator nor the document, and a change of the API shows
 * as a reviewable diff. test/integration/openapi.python-client.test.ts fails when they drift.
 */
export const OPENAPI_PYTHON_CLIENT_VERSION = '0.29.1';
export const PYTHON_CLIENT_DIR = path.join(PROJECT_ROOT, 'clients', 'python');
export const PYTHON_GENERATED_DIR = path.join(PYTHON_CLIENT_DIR, 'src', 'atelier', '_generated');
export const PYTHON_GENERATOR_CONFIG = path.join(PYTHON_CLIENT_DIR, 'openapi-python-client.yaml');
export const PYTHON_REGENERATE_COMMAND = 'node --conditions=atelier-source --import tsx scripts/generate-python-client.ts';

export const ensureOpenapiPythonClient = (log?: (line: string) => void) =>
  ensurePypiTool({ name: 'openapi-python-client', version: OPENAPI_PYTHON_CLIENT_VERSION, bin: 'openapi-python-client', log });

export interface GeneratedModels {
  /** A temporary directory holding the generated package (the caller removes `root`). */
  root: string;
  dir: string;
  /** Exit code and everything the generator printed (warnings included). */
  code: number;
  output: string;
}

/**
 * Runs the pinned generator on a document, outside the repository (so no ruff settings of ours apply to its
 * post hooks, and the output is the same wherever it runs), with the venv's ruff on PATH for those hooks.
 */
export async function generatePythonModels(document: unknown, log?: (line: string) => void): Promise<GeneratedModels> {
  const bin = await ensureOpenapiPythonClient(log);
  const root = await mkdtemp(path.join(tmpdir(), 'atelier-python-models-'));
  const docPath = path.join(root, 'openapi.json');
  await writeFile(docPath, JSON.stringify(document));
  const dir = path.join(root, '_generated');
  const env = {
    ...process.env,
    PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    TERM: 'dumb',
    RUFF_NO_CACHE: 'true',
  };
  const args = ['generate', '--path', docPath, '--output-path', dir, '--meta', 'none', '--config', PYTHON_GENERATOR_CONFIG];
  const result = await run(bin, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, output: `${r.stdout}${r.stderr}` }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof err.code === 'number' ? err.code : 1,
      output: `${err.stdout ?? ''}${err.stderr ?? ''}`,
    }),
  );
  return { root, dir, ...result };
}

/** Every file under `dir` (relative path → contents), caches left out. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    if (rel.split(path.sep).some((part) => part === '__pycache__' || part === '.pytest_cache' || part === '.ruff_cache')) continue;
    files.set(rel.split(path.sep).join('/'), await readFile(full, 'utf8'));
  }
  return files;
}

/** Which files differ between two trees (added, removed or changed), sorted. */
export function treeDifferences(a: Map<string, string>, b: Map<string, string>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((n) => a.get(n) !== b.get(n)).sort();
}

/** A hash of what `pip install ./clients/python` installs: every file of the package but tests and caches. */
export async function pythonClientHash(): Promise<string> {
  const hash = createHash('sha256');
  const tree = await readTree(PYTHON_CLIENT_DIR);
  for (const name of [...tree.keys()].sort()) {
    if (name.startsWith('tests/') || name.includes('.egg-info/') || name.startsWith('build/')) continue;
    hash.update(`${name}\0${tree.get(name)}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

export const PYTHON_TEST_REQUIREMENTS = ['pytest==9.2.0'];

/**
 * A venv under .tools/ with clients/python installed (not editable: what a user gets) and pytest, kept while
 * the package's files are unchanged (its name carries their hash); an older one is removed when a new one is made.
 */
export async function ensurePythonClientVenv(log?: (line: string) => void): Promise<{ python: string; venv: string }> {
  const venv = path.join(TOOLS_DIR, `python-client-${await pythonClientHash()}`);
  const python = path.join(venv, 'bin', 'python');
  const marker = path.join(venv, '.installed');
  if (existsSync(python) && existsSync(marker)) return { python, venv };
  await mkdir(TOOLS_DIR, { recursive: true });
  for (const old of await readdir(TOOLS_DIR)) {
    if (old.startsWith('python-client-')) await rm(path.join(TOOLS_DIR, old), { recursive: true, force: true });
  }
  log?.(`installing clients/python and ${PYTHON_TEST_REQUIREMENTS.join(', ')} into ${venv}`);
  await run('python3', ['-m', 'venv', venv]);
  // Built from a copy: pip writes build/ and *.egg-info beside the sources otherwise.
  const copy = await mkdtemp(path.join(tmpdir(), 'atelier-python-client-'));
  try {
    const src = path.join(copy, 'python');
    await run('cp', ['-R', PYTHON_CLIENT_DIR, src]);
    await rm(path.join(src, 'tests'), { recursive: true, force: true });
    await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', src, ...PYTHON_TEST_REQUIREMENTS], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
  await writeFile(marker, 'ok\n');
  return { python, venv };
}
