#!/usr/bin/env node
// `npm run build`: every package's TypeScript compiled to JavaScript beside it (packages/<name>/dist, file for
// file, imports kept), plus the worker's workflow bundles, so production processes run with plain node:
// `node packages/cli/dist/main.js api|worker`. Types are checked by `tsc --noEmit` (npm test), not here:
// esbuild only strips them, which is why every import names its file (`./x.js`) and every type import says so.
import { cpSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

const started = performance.now();
for (const name of readdirSync(packagesDir).sort()) {
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

// The workflow code, bundled now rather than at each worker's start (Temporal's prebuilt bundles), from the
// compiled engine: this also proves the compiled packages load under plain node.
const worker = await import(pathToFileURL(path.join(packagesDir, 'engine', 'dist', 'worker.js')).href);
for (const [variant, file] of Object.entries(worker.PREBUILT_BUNDLE_PATHS)) {
  const { code } = await worker.bundleRunWorkflows({ tracing: variant === 'tracing' });
  writeFileSync(file, code);
}
console.log(`built packages/*/dist and the workflow bundles in ${((performance.now() - started) / 1000).toFixed(1)} s`);
