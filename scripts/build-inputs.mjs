// What the compiled build (scripts/build.mjs) is made from, hashed, so `npm start` and `npm test` rebuild only
// when something it reads has changed: every file under packages/*/src, each package's package.json, the
// build script itself, the lockfile (esbuild's and Temporal's bundler versions) and Node's major version.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under `dir`, in a stable order. */
export function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

/** The hash of everything `scripts/build.mjs` under `root` compiles from (file names and contents). */
export function buildInputsHash(root) {
  const hash = createHash('sha256').update(`node ${process.versions.node.split('.')[0]}`);
  const files = ['scripts/build.mjs', 'scripts/build-inputs.mjs', 'pnpm-lock.yaml'].map((f) => path.join(root, f));
  const packagesDir = path.join(root, 'packages');
  for (const name of readdirSync(packagesDir).sort()) {
    files.push(path.join(packagesDir, name, 'package.json'));
    const src = path.join(packagesDir, name, 'src');
    if (existsSync(src)) files.push(...filesUnder(src));
  }
  for (const file of files) {
    hash.update(`\0${path.relative(root, file)}\0`).update(existsSync(file) ? readFileSync(file) : '(absent)');
  }
  return hash.digest('hex');
}
