#!/usr/bin/env node
// `npm run build`: every package's TypeScript compiled to JavaScript beside it (packages/<name>/dist, file for
// file, imports kept), plus the worker's workflow bundles, so production processes run with plain node:
// `node packages/cli/dist/main.js api|worker`. Types are checked by `tsc --noEmit` (npm test), not here:
// esbuild only strips them, which is why every import names its file (`./x.js`) and every type import says so.
// @atelier/client is also published (`npm pack` in packages/client): it gets declarations and a CommonJS copy too.
// `node scripts/build.mjs client` builds only the packages named (the workflow bundles come with `engine`).
// `--if-stale` (`npm start`, `npm test`) does nothing when the last whole build was made from these very inputs
// (build-inputs.mjs). Each package is compiled into a folder of its own, whose files replace dist/'s one rename
// each once every package has compiled: processes running from dist/ (a test suite, an `npm start` beside it)
// never find a file missing or half written, and a failed build leaves the previous one whole.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildInputsHash, filesUnder } from './build-inputs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = path.join(root, 'packages');

/**
 * The client's declarations, by tsc (packages/client/tsconfig.build.json: NodeNext, emitDeclarationOnly) in a
 * child process that runs beside the esbuild work below, into a directory of its own, copied into the client's new
 * build once esbuild has written it.
 * Without TypeScript (a production install without devDependencies) there are none: nothing at run time needs them.
 */
function emitClientDeclarations() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.warn('typescript is not installed: packages/client/dist has no declarations (npm pack needs them)');
    return Promise.resolve(undefined);
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'atelier-client-types-'));
  const child = spawn(process.execPath, [tsc, '-p', path.join(packagesDir, 'client', 'tsconfig.build.json'), '--outDir', outDir], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(outDir) : reject(new Error(`tsc (the client's declarations) exited with ${code}`))));
  });
}

/**
 * What the published client adds to its ESM dist/: the declarations beside it (with the generated schema.d.ts, which
 * tsc does not copy), and dist/cjs for `require`, marked CommonJS by its own package.json. That one is a single
 * bundle with openapi-fetch inside: compiled file for file, its `import createClient from 'openapi-fetch'` would
 * become Node's interop (the default import is the whole module.exports, as the sources are `type: module`), not a function.
 */
async function finishClientPackage(dist, declarationsDir) {
  const src = path.join(packagesDir, 'client', 'src');
  const cjs = path.join(dist, 'cjs');
  await build({
    entryPoints: [path.join(src, 'index.ts')],
    bundle: true,
    outdir: cjs,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  writeFileSync(path.join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  if (!declarationsDir) return;
  try {
    for (const dir of [dist, cjs]) {
      cpSync(declarationsDir, dir, { recursive: true });
      cpSync(path.join(src, 'schema.d.ts'), path.join(dir, 'schema.d.ts'));
    }
  } finally {
    rmSync(declarationsDir, { recursive: true, force: true });
  }
}

const STAMP = path.join(root, 'node_modules', '.atelier-build-stamp');
const all = readdirSync(packagesDir).sort();
const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const named = args.filter((a) => a !== '--if-stale');
const unknown = named.filter((name) => !all.includes(name));
if (unknown.length > 0) throw new Error(`no package ${unknown.join(', ')} under packages/ (there are ${all.join(', ')})`);
const names = named.length > 0 ? all.filter((name) => named.includes(name)) : all;
const distOf = (name) => path.join(packagesDir, name, 'dist');

const inputs = buildInputsHash(root);
const bundlePaths = [path.join(distOf('engine'), 'workflow-bundle.js'), path.join(distOf('engine'), 'workflow-bundle-tracing.js')];
const current = () =>
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8').trim() === inputs &&
  all.every((name) => existsSync(distOf(name))) &&
  bundlePaths.every((file) => existsSync(file));
if (ifStale && named.length === 0 && current()) {
  console.log('packages/*/dist is up to date with the sources');
  process.exit(0);
}

/** Folders a build killed midway left beside a dist/ (named after its process id). */
function removeLeftovers(packageDir) {
  for (const name of readdirSync(packageDir)) {
    const pid = /^\.dist-next-(\d+)$/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch {
      rmSync(path.join(packageDir, name), { recursive: true, force: true });
    }
  }
}

/**
 * `next`'s files in place of `dist`'s, each by one rename (which replaces a file whole), then what `dist` held
 * that `next` does not removed: a process loading from dist/ meanwhile finds every file, old or new. The
 * workflow bundles stay until they are written again below.
 */
function replaceDir(next, dist) {
  const fresh = new Set(filesUnder(next).map((file) => path.relative(next, file)));
  for (const file of fresh) {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    renameSync(path.join(next, file), path.join(dist, file));
  }
  for (const file of filesUnder(dist)) if (!fresh.has(path.relative(dist, file)) && !bundlePaths.includes(file)) rmSync(file);
}

/** A file written whole or not at all, for a reader starting while it is written. */
function writeFileWhole(file, data) {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}

const started = performance.now();
const clientDeclarations = names.includes('client') ? emitClientDeclarations() : undefined;
const nextDirs = new Map();
try {
  for (const name of names) {
    const src = path.join(packagesDir, name, 'src');
    removeLeftovers(path.join(packagesDir, name));
    const next = path.join(packagesDir, name, `.dist-next-${process.pid}`);
    rmSync(next, { recursive: true, force: true });
    nextDirs.set(name, next);
    const files = filesUnder(src);
    const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    await build({
      entryPoints: sources,
      outdir: next,
      outbase: src,
      format: 'esm',
      platform: 'node',
      // Node 20.10 reads import attributes (the model catalogs' `with { type: 'json' }`); esbuild's table predates that.
      target: 'node20',
      supported: { 'import-attributes': true },
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    // What the code reads beside itself at run time (the console's assets, the expression thread's module).
    for (const file of files.filter((f) => !f.endsWith('.ts'))) cpSync(file, path.join(next, path.relative(src, file)));
  }
  if (clientDeclarations) await finishClientPackage(nextDirs.get('client'), await clientDeclarations);
  for (const [name, next] of nextDirs) replaceDir(next, distOf(name));
} finally {
  for (const next of nextDirs.values()) rmSync(next, { recursive: true, force: true });
}

// The workflow code, bundled now rather than at each worker's start (Temporal's prebuilt bundles), from the
// compiled engine: this also proves the compiled packages load under plain node. A worker starting before they
// are written loads the previous build's (replaceDir keeps them), or bundles its own on a first build.
if (names.includes('engine')) {
  const worker = await import(pathToFileURL(path.join(distOf('engine'), 'worker.js')).href);
  for (const [variant, file] of Object.entries(worker.PREBUILT_BUNDLE_PATHS)) {
    const { code } = await worker.bundleRunWorkflows({ tracing: variant === 'tracing', ignorePrebuilt: true });
    writeFileWhole(file, code);
  }
}
if (named.length === 0) writeFileSync(STAMP, `${inputs}\n`);
const built = named.length > 0 ? `packages/{${names.join(',')}}/dist` : 'packages/*/dist';
console.log(
  `built ${built}${names.includes('engine') ? ' and the workflow bundles' : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
