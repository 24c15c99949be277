#!/usr/bin/env node
// The README's two commands land here (`npm start`, `npm test`). It needs only Node and Python 3: it
// installs the pinned pnpm's dependencies, then runs the TypeScript entry points through tsx.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager; // pnpm@x.y.z

function install() {
  const args = ['-y', pnpm, 'install', '--frozen-lockfile', '--prefer-offline', '--reporter=append-only'];
  const result = spawnSync('npx', args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`dependency install failed (npx ${args.join(' ')})`);
    process.exit(result.status ?? 1);
  }
}

function run(command, args, env = {}) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  // Ctrl-C reaches the child through the terminal's process group; wait for it to stop cleanly.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const [mode, ...rest] = process.argv.slice(2);
install();
switch (mode) {
  case 'dev':
    run(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', 'dev', ...rest]);
    break;
  case 'cli':
    run(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', ...rest]);
    break;
  case 'test': {
    const typecheck = spawnSync(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
    if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
    const validate = spawnSync(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', 'workflows', 'validate'], { cwd: root, stdio: 'inherit' });
    if (validate.status !== 0) process.exit(validate.status ?? 1);
    run(bin('vitest'), ['run', ...rest]);
    break;
  }
  case 'bench':
    run(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...rest]);
    break;
  default:
    console.error('usage: node scripts/bootstrap.mjs dev|test|cli|bench');
    process.exit(64);
}
