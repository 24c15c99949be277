import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';

/**
 * The compiled build (scripts/build.mjs) as `npm start` and `npm test` use it: made again only when what it compiles
 * from changed, and replaced under processes that run from it without a file ever missing.
 */
const run = promisify(execFile);
const BUILD = path.join(PROJECT_ROOT, 'scripts', 'build.mjs');
const { NODE_OPTIONS: _nodeOptions, ...childEnv } = process.env;
const build = (...args: string[]) => run(process.execPath, [BUILD, ...args], { cwd: PROJECT_ROOT, env: childEnv });

async function inputsHash(root: string): Promise<string> {
  const inputs = pathToFileURL(path.join(PROJECT_ROOT, 'scripts', 'build-inputs.mjs')).href;
  const script = `const { buildInputsHash } = await import(${JSON.stringify(inputs)}); console.log(buildInputsHash(process.argv[1]));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, root], { env: childEnv });
  return stdout.trim();
}

const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());

describe('the compiled build', () => {
  let tree: string;
  beforeAll(async () => {
    tree = await mkdtemp(path.join(tmpdir(), 'atelier-build-inputs-'));
    await build('--if-stale');
  }, 120_000);
  afterAll(async () => {
    await rm(tree, { recursive: true, force: true });
  });

  it("hashes every source file and package.json, and nothing that is not the build's input", async () => {
    const write = async (file: string, text: string) => {
      await mkdir(path.dirname(path.join(tree, file)), { recursive: true });
      await writeFile(path.join(tree, file), text);
    };
    await write('packages/a/package.json', '{"name":"a"}');
    await write('packages/a/src/index.ts', 'export const a = 1;\n');
    await write('packages/a/src/deep/assets/page.html', '<p>a</p>');
    const first = await inputsHash(tree);
    expect(await inputsHash(tree)).toBe(first);

    // What the build does not read: tests, the compiled output itself.
    await write('packages/a/test/a.test.ts', 'it();\n');
    await write('packages/a/dist/index.js', 'export const a = 1;\n');
    expect(await inputsHash(tree)).toBe(first);

    const changed: string[] = [];
    for (const [file, text] of [
      ['packages/a/src/index.ts', 'export const a = 2;\n'],
      ['packages/a/src/deep/assets/page.html', '<p>b</p>'],
      ['packages/a/src/added.ts', 'export {};\n'],
      ['packages/a/package.json', '{"name":"a","version":"1.0.0"}'],
      ['packages/b/src/index.ts', 'export {};\n'],
      ['pnpm-lock.yaml', 'lockfileVersion: 9\n'],
    ] as const) {
      await write(file, text);
      changed.push(await inputsHash(tree));
    }
    expect(new Set([first, ...changed]).size).toBe(changed.length + 1);
    await rm(path.join(tree, 'packages/a/src/added.ts'));
    expect(await inputsHash(tree)).not.toBe(changed.at(-1));
  });

  it('does nothing with --if-stale when the sources have not changed since the last build', async () => {
    const file = path.join(PROJECT_ROOT, 'packages', 'cli', 'dist', 'main.js');
    const before = statSync(file);
    const { stdout } = await build('--if-stale');
    expect(stdout).toContain('up to date');
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('replaces a package under a process reading it: no file is ever missing', async () => {
    const dist = path.join(PROJECT_ROOT, 'packages', 'domain', 'dist');
    const files = filesUnder(dist);
    const before = statSync(path.join(dist, 'index.js')).ino;
    const building = spawn(process.execPath, [BUILD, 'domain'], { cwd: PROJECT_ROOT, env: childEnv, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => building.once('exit', resolve));
    let done = false;
    void exited.then(() => (done = true));
    let checks = 0;
    const missing = new Set<string>();
    while (!done) {
      // Checks in batches, yielding between them so the build's exit is heard.
      for (let i = 0; i < 200; i++) {
        const file = files[checks++ % files.length]!;
        if (!existsSync(file)) missing.add(path.relative(dist, file));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await exited).toBe(0);
    expect([...missing]).toEqual([]);
    // The files were written anew (each renamed in), and the folder holds what it held.
    expect(statSync(path.join(dist, 'index.js')).ino).not.toBe(before);
    expect(filesUnder(dist).sort()).toEqual(files.sort());
    expect(checks).toBeGreaterThan(files.length * 10);
    expect(readdirSync(path.dirname(dist)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
  }, 60_000);
});
