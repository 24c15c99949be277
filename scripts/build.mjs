#!/usr/bin/env node
// `npm run build`: every package's TypeScript compiled to JavaScript beside it (packages/<name>/dist, file for
// file, imports kept), plus the worker's workflow bundles, so production processes run with plain node:
// `node packages/cli/dist/main.js api|worker`. Types are checked by `tsc --noEmit` (npm test), not here:
// esbuild only strips them, which is why every import names its file (`./x.js`) and every type import says so.
// @atelier/client is also published (`npm pack` in packages/client): it gets declarations and a CommonJS copy too.
// `node scripts/build.mjs client` builds only the packages named (the workflow bundles come with `engine`).
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = path.join(root, 'packages');

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * The client's declarations, by tsc (packages/client/tsconfig.build.json: NodeNext, emitDeclarationOnly) in a
 * child process that runs beside the esbuild work below, into a directory of its own (dist/ is emptied below).
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
async function finishClientPackage(declarationsDir) {
  const src = path.join(packagesDir, 'client', 'src');
  const dist = path.join(packagesDir, 'client', 'dist');
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

const all = readdirSync(packagesDir).sort();
const named = process.argv.slice(2);
const unknown = named.filter((name) => !all.includes(name));
if (unknown.length > 0) throw new Error(`no package ${unknown.join(', ')} under packages/ (there are ${all.join(', ')})`);
const names = named.length > 0 ? all.filter((name) => named.includes(name)) : all;

const started = performance.now();
const clientDeclarations = names.includes('client') ? emitClientDeclarations() : undefined;
for (const name of names) {
  const src = path.join(packagesDir, name, 'src');
  const dist = path.join(packagesDir, name, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const files = filesUnder(src);
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await build({
    entryPoints: sources,
    outdir: dist,
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
  for (const file of files.filter((f) => !f.endsWith('.ts'))) cpSync(file, path.join(dist, path.relative(src, file)));
}

if (clientDeclarations) await finishClientPackage(await clientDeclarations);

// The workflow code, bundled now rather than at each worker's start (Temporal's prebuilt bundles), from the
// compiled engine: this also proves the compiled packages load under plain node.
if (names.includes('engine')) {
  const worker = await import(pathToFileURL(path.join(packagesDir, 'engine', 'dist', 'worker.js')).href);
  for (const [variant, file] of Object.entries(worker.PREBUILT_BUNDLE_PATHS)) {
    const { code } = await worker.bundleRunWorkflows({ tracing: variant === 'tracing' });
    writeFileSync(file, code);
  }
}
const built = named.length > 0 ? `packages/{${names.join(',')}}/dist` : 'packages/*/dist';
console.log(
  `built ${built}${names.includes('engine') ? ' and the workflow bundles' : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
