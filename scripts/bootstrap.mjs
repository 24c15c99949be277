#!/usr/bin/env node
// The README's two commands land here (`npm start`, `npm test`). It needs only Node and Python 3: it
// installs the pinned pnpm's dependencies and compiles the packages when their sources changed; `npm start`
// then runs the compiled processes as production does; the CLI and the bench scripts run through tsx.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager; // pnpm@x.y.z

// The install is skipped when node_modules was installed from exactly this lockfile and these package.json
// files (and pnpm version): a hash of them is stored in node_modules/.atelier-install-stamp after a
// successful install. A clean clone has no stamp, so `npm test` there still installs everything.
const stampPath = path.join(root, 'node_modules', '.atelier-install-stamp');

function installInputsHash() {
  const hash = createHash('sha256').update(pnpm);
  const files = ['pnpm-lock.yaml', 'package.json', 'pnpm-workspace.yaml'];
  for (const dir of ['packages', 'test', 'bench']) {
    const base = path.join(root, dir);
    if (dir !== 'packages') files.push(path.join(dir, 'package.json'));
    else if (existsSync(base)) for (const name of readdirSync(base).sort()) files.push(path.join(dir, name, 'package.json'));
  }
  for (const file of files) {
    const full = path.join(root, file);
    hash.update(`\0${file}\0`).update(existsSync(full) ? readFileSync(full) : '(absent)');
  }
  return hash.digest('hex');
}

function install() {
  const inputs = installInputsHash();
  if (existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === inputs) return;
  const args = ['-y', pnpm, 'install', '--frozen-lockfile', '--prefer-offline', '--reporter=append-only'];
  const result = spawnSync('npx', args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`dependency install failed (npx ${args.join(' ')})`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampPath, `${inputs}\n`);
}

// The review console's browser test (test/integration/console.test.ts) drives Debian's Chromium through
// playwright-core, which brings no browser of its own. When it is missing, install it like everything else
// (as root, or through sudo); where that cannot work, say what to do: the console test then fails saying so.
const CHROMIUM = '/usr/bin/chromium';

function ensureChromium() {
  if (existsSync(CHROMIUM) || process.env.CHROMIUM_PATH) return;
  const asRoot = process.getuid?.() === 0;
  // sudo only where it will not stop for a password nobody can type (no terminal).
  const viaSudo = !asRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  const viaSudoPrompt = !asRoot && !viaSudo && process.stdin.isTTY && spawnSync('sudo', ['-V'], { stdio: 'ignore' }).status === 0;
  if (process.platform === 'linux' && existsSync('/usr/bin/apt-get') && (asRoot || viaSudo || viaSudoPrompt)) {
    const aptGet = (...args) =>
      spawnSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      }).status === 0;
    console.log('installing Chromium for the review console test: apt-get install -y chromium');
    // A fresh machine may have no package lists yet: update once and try again.
    if (!aptGet('install', '-y', 'chromium')) aptGet('update') && aptGet('install', '-y', 'chromium');
  }
  if (!existsSync(CHROMIUM)) {
    console.error(
      `Chromium is not installed at ${CHROMIUM}, and npm test could not install it (it needs apt-get, as root or with sudo).\n` +
        'Install it with "sudo apt-get install -y chromium" (Debian, Ubuntu) or set CHROMIUM_PATH to a Chromium or Chrome binary;\n' +
        'until then test/integration/console.test.ts fails and every other test runs.',
    );
  }
}

function run(command, args, env = {}) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  // Ctrl-C reaches the child through the terminal's process group; wait for it to stop cleanly.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
// The CLI from its TypeScript sources: tsx compiles on the fly, and the `atelier-source` export condition
// points workspace packages at src/ (plain node, as in production, gets the compiled dist/; see `build`).
const source = (entry, ...args) => ['--conditions=atelier-source', '--import', 'tsx', entry, ...args];
/** The compiled build (scripts/build.mjs), made again only when its inputs changed since the last one. */
function buildIfStale() {
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const compiledCli = path.join(root, 'packages', 'cli', 'dist', 'main.js');
const [mode, ...rest] = process.argv.slice(2);
install();
switch (mode) {
  case 'dev':
    // Plain node on dist/, as production runs: the gateway and worker `atelier dev` starts inherit it.
    buildIfStale();
    run(process.execPath, [compiledCli, 'dev', ...rest]);
    break;
  case 'cli':
    run(process.execPath, source('packages/cli/src/main.ts', ...rest));
    break;
  case 'test': {
    ensureChromium();
    const typecheck = spawnSync(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
    if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
    // Formatting and lint rules (biome.json) hold for every source file: a failure names the file and the fix.
    // A warning fails too: without --error-on-warnings biome ci passes them, and they pile up unread.
    const style = spawnSync(bin('biome'), ['ci', '--error-on-warnings', '.'], { cwd: root, stdio: 'inherit' });
    if (style.status !== 0) process.exit(style.status ?? 1);
    const validate = spawnSync(process.execPath, source('packages/cli/src/main.ts', 'workflows', 'validate'), {
      cwd: root,
      stdio: 'inherit',
    });
    if (validate.status !== 0) process.exit(validate.status ?? 1);
    // The compiled build production runs (test/e2e/readme-stack.test.ts starts its processes).
    buildIfStale();
    // The suite's `atelier` child processes run this fresh build: tsx spends seconds compiling each one.
    run(bin('vitest'), ['run', ...rest], { ATELIER_TEST_BUILD: 'compiled' });
    break;
  }
  case 'build':
    run(process.execPath, ['scripts/build.mjs', ...rest]);
    break;
  case 'stack-production': {
    // Its gateways and workers run the compiled build, as production does: build it, then run plain node on it.
    buildIfStale();
    run(process.execPath, [compiledCli, 'stack', 'production', ...rest]);
    break;
  }
  case 'bench': {
    // `npm run bench` runs the quiet-path targets (bench/run.ts); `npm run bench -- slow-calls` runs bench/slow-calls.ts.
    const named = rest[0] && /^[a-z-]+$/.test(rest[0]) && existsSync(path.join(root, 'bench', `${rest[0]}.ts`));
    run(process.execPath, named ? source(`bench/${rest[0]}.ts`, ...rest.slice(1)) : source('bench/run.ts', ...rest));
    break;
  }
  default:
    console.error('usage: node scripts/bootstrap.mjs dev|test|build|cli|bench|stack-production');
    process.exit(64);
}
