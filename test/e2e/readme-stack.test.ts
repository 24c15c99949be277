import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { PROJECT_ROOT, sourceCliArgs } from '@atelier/cli/stack/paths';
import { childProcesses, freePort, isAlive, waitFor } from '@atelier/cli/stack/processes';

/**
 * Starts the service exactly as the README says (`npm start` runs scripts/bootstrap.mjs dev), on its
 * embedded defaults, and drives it over HTTP as a user would. Only ports and the data folder differ,
 * so the suite does not collide with a developer's own running stack.
 */
const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'atelier-e2e-'));
// mkdtemp makes the folder private; the embedded PostgreSQL (run as `postgres` when we are root) must enter it.
chmodSync(dataDir, 0o755);
let ports: { api: number; temporal: number; ui: number; pg: number };
let stack: ChildProcess | undefined;
let output = '';

async function env() {
  ports ??= { api: await freePort(), temporal: await freePort(), ui: await freePort(), pg: await freePort() };
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    ATELIER_DATA_DIR: dataDir,
    ATELIER_API_PORT: String(ports.api),
    TEMPORAL_PORT: String(ports.temporal),
    TEMPORAL_UI_PORT: String(ports.ui),
    ATELIER_PG_PORT: String(ports.pg),
    ATELIER_LOCAL_LATENCY_MS: '400',
    LOG_LEVEL: 'warn',
  };
  delete e.DATABASE_URL;
  delete e.TEMPORAL_ADDRESS;
  return e;
}

const base = () => `http://127.0.0.1:${ports.api}`;

async function call(method: string, p: string, token?: string, body?: unknown) {
  const res = await fetch(`${base()}${p}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** `npm start`, or the compiled build (`npm run build`) the way production runs it: plain node on dist/. */
async function startStack(how: 'npm start' | 'compiled' = 'npm start'): Promise<void> {
  output = '';
  const args = how === 'npm start' ? ['scripts/bootstrap.mjs', 'dev'] : ['packages/cli/dist/main.js', 'dev'];
  stack = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: await env(),
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, as a terminal gives `npm start`: Ctrl-C is sent to the group (stopStack).
    detached: true,
  });
  stack.stdout!.on('data', (d) => (output += d));
  stack.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 150_000;
  while (!output.includes('Atelier is running.')) {
    if (stack.exitCode !== null) throw new Error(`the stack exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the stack did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until no run's execution is open. Ctrl-C stops PostgreSQL together with the worker, so a step still in
 * flight then (a run an earlier test cancelled or cut off, retried once its heartbeat timed out) rightly warns that
 * it could not settle and is retried at the next start; the stop itself is judged on a stack with no run working.
 */
async function untilNoRunWorking(): Promise<void> {
  const connection = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
  try {
    const workflows = new Client({ connection }).workflow;
    await waitFor(
      'no run working',
      async () => {
        const { count } = await workflows.count(`WorkflowType = 'runWorkflow' AND ExecutionStatus = 'Running'`);
        if (count > 0) throw new Error(`${count} runs still working`);
      },
      90_000,
    );
  } finally {
    await connection.close();
  }
}

async function stopStack(): Promise<number | null> {
  if (!stack || stack.exitCode !== null) return stack?.exitCode ?? null;
  await untilNoRunWorking();
  const s = stack;
  const exited = new Promise<number | null>((r) => s.once('exit', (code) => r(code)));
  // What Ctrl-C does: SIGINT to every process of the foreground group (PostgreSQL and the dev server included).
  process.kill(-s.pid!, 'SIGINT');
  const code = await exited;
  // PostgreSQL hears it too and ends every session: no warning for what the stop itself causes.
  expect(output).toContain('stopping...');
  const stopped = output.slice(output.lastIndexOf('stopping...'));
  expect(stopped.split('\n').filter((line) => /"level":[456]0/.test(line))).toEqual([]);
  return code;
}

/** Every process under pid, pid included, deepest first (PostgreSQL's backends under its postmaster, …). */
async function treeOf(pid: number): Promise<Array<{ pid: number; args: string }>> {
  const below = await Promise.all((await childProcesses(pid)).map(async (c) => treeOf(c.pid)));
  const { stdout } = await run('ps', ['-o', 'args=', '-p', String(pid)]).catch(() => ({ stdout: '' }));
  return [...below.flat(), { pid, args: stdout.trim() }];
}

async function processesUsing(dir: string): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'args']).catch(() => ({ stdout: '' }));
  return stdout.split('\n').filter((l) => l.includes(dir));
}

/** The CLI's user commands reach the API with a key, as a user would run them. */
async function cli(apiKey: string, ...args: string[]) {
  const e = { ...(await env()), ATELIER_URL: base(), ATELIER_API_KEY: apiKey };
  return run(process.execPath, sourceCliArgs(...args), { cwd: PROJECT_ROOT, env: e });
}

afterAll(async () => {
  if (stack && stack.exitCode === null) process.kill(-stack.pid!, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the README stack', () => {
  let token: string;
  let apiKey: string;
  let completedRunId: string;

  it('starts everything with one command and says where things are', async () => {
    await startStack();
    expect(output).toContain(`API            http://127.0.0.1:${ports.api}/v1`);
    expect(output).toContain(`Temporal UI    http://127.0.0.1:${ports.ui}`);
    expect(output).toContain('/docs');
    const ui = await fetch(`http://127.0.0.1:${ports.ui}/`);
    expect(ui.status).toBe(200);
    const docs = await fetch(`${base()}/docs`);
    expect(await docs.text()).toContain('swagger-ui-bundle.js');
    const spec = await call('GET', '/openapi.json');
    expect(spec.body.openapi).toBe('3.1.0');
  }, 180_000);

  it('runs the gateway and the worker as processes of their own', async () => {
    const pids = output.match(/Processes\s+gateway pid (\d+), worker pid (\d+)/);
    expect(pids).not.toBeNull();
    const children = await childProcesses(stack!.pid!);
    // npm start's bootstrap runs `atelier dev`, which runs the two; both are its children.
    const dev = children.find((c) => c.args.endsWith(' dev'));
    expect(dev).toBeDefined();
    // Its other children are the embedded Temporal dev server and PostgreSQL.
    const supervised = (await childProcesses(dev!.pid)).filter((c) => /main\.[jt]s (api|worker)$/.test(c.args));
    expect(supervised.map((c) => c.args.split(' ').at(-1)).sort()).toEqual(['api', 'worker']);
    // Compiled, as production runs them: plain node on dist/, no tsx.
    for (const c of [dev!, ...supervised]) expect(c.args).toMatch(/^\S+ \S+\/packages\/cli\/dist\/main\.js (dev|api|worker)$/);
    expect(supervised.filter((c) => /tsx|atelier-source/.test(c.args))).toEqual([]);
    // `atelier dev` itself serves nothing: the worker's and the gateway's code (the Temporal SDK's native core, image
    // encoding) is loaded by the processes that run them, never by it.
    const natives = (pid: number) => ['core-bridge', 'libvips'].filter((lib) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes(lib));
    expect(natives(dev!.pid)).toEqual([]);
    const worker = supervised.find((c) => c.args.endsWith(' worker'))!;
    expect(natives(worker.pid)).toEqual(['core-bridge', 'libvips']);
    expect(supervised.map((c) => String(c.pid)).sort()).toEqual([pids![1], pids![2]].sort());
  });

  it("takes a new user from nothing to a finished run with the README's two first-step commands", async () => {
    // npm start names them (with --url here: the test's gateway is not on the default port 8080).
    expect(output).toContain(`npm run atelier -- init --url ${base()}\n  npm run atelier -- runs start plan-research-report`);
    // The README's commands as written: no ATELIER_URL, so the CLI finds the gateway `npm start` serves by itself
    // (ATELIER_API_PORT, as the stack was started with).
    const home = mkdtempSync(path.join(tmpdir(), 'atelier-e2e-home-'));
    const e = { ...(await env()), HOME: home, XDG_CONFIG_HOME: '', ATELIER_URL: '', ATELIER_API_KEY: '' };
    const npm = (extra: NodeJS.ProcessEnv, ...args: string[]) =>
      run('npm', ['run', '-s', 'atelier', '--', ...args], { cwd: PROJECT_ROOT, env: { ...e, ...extra } });
    try {
      // No terminal to ask at: init takes the email and password from the environment.
      const init = await npm({ ATELIER_EMAIL: 'first-steps@example.com', ATELIER_PASSWORD: 'amber lantern orchard tide' }, 'init');
      expect(init.stdout).toContain(`registered first-steps@example.com (first-steps) at http://127.0.0.1:${ports.api}`);
      expect(init.stdout).toContain('its secret is shown this once');
      const watched = await npm({}, 'runs', 'start', 'plan-research-report', '--set', 'topic=urban beekeeping', '--watch');
      expect(watched.stdout).toMatch(/step 3 \S+ .*completed \$/);
      expect(watched.stdout).toMatch(/^run run-[0-9a-f]{8} ended completed \(artifact artifact-\S+\)$/m);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  it('lets a user register, make an API key, run plan-research-report to completion and read the artifact', async () => {
    const reg = await call('POST', '/v1/auth/register', undefined, { email: 'e2e@example.com', password: 'a-long-password!', name: 'E2E' });
    expect(reg.status).toBe(201);
    token = reg.body.accessToken;
    const key = await call('POST', '/v1/api-keys', token, { name: 'e2e' });
    expect(key.status).toBe(201);
    apiKey = key.body.secret;

    const catalog = await call('GET', '/v1/catalog/workflows');
    expect(catalog.body.items.map((w: any) => w.id)).toContain('plan-research-report');

    const created = await call('POST', '/v1/runs', apiKey, { templateId: 'plan-research-report', intake: { topic: 'end-to-end testing' } });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('pending');
    completedRunId = created.body.id;

    // `atelier runs watch` follows the run live until it ends.
    const watched = await cli(apiKey, 'runs', 'watch', completedRunId);
    expect(watched.stdout).toMatch(/step/);
    expect(watched.stdout).toContain(`run ${completedRunId} ended completed`);

    const run = await call('GET', `/v1/runs/${completedRunId}`, apiKey);
    expect(run.body.status).toBe('completed');
    const artifact = await call('GET', `/v1/artifacts/${run.body.artifactId}`, apiKey);
    expect(artifact.status).toBe(200);
    expect(artifact.body.content.type).toBe('research-report');
    expect(artifact.body.content.sections.length).toBeGreaterThanOrEqual(3);

    const shown = await cli(apiKey, 'runs', 'show', completedRunId, '--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: completedRunId, status: 'completed' });
  }, 120_000);

  it('cancels another run', async () => {
    const created = await call('POST', '/v1/runs', apiKey, { templateId: 'plan-research-report', intake: { topic: 'to be cancelled' } });
    const cancel = await call('POST', `/v1/runs/${created.body.id}/cancel`, apiKey);
    expect(cancel.status).toBe(200);
    const deadline = Date.now() + 30_000;
    let status = '';
    while (Date.now() < deadline && status !== 'cancelled') {
      status = (await call('GET', `/v1/runs/${created.body.id}`, apiKey)).body.status;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('cancelled');
  }, 60_000);

  it('restarts a worker that crashes, and its runs still complete', async () => {
    const worker = Number(output.match(/worker pid (\d+)/)![1]);
    const created = await call('POST', '/v1/runs', apiKey, { templateId: 'plan-research-report', intake: { topic: 'survives a crash' } });
    expect(created.status).toBe(201);
    process.kill(worker, 'SIGKILL');
    const deadline = Date.now() + 90_000;
    let status = '';
    while (Date.now() < deadline && status !== 'completed') {
      status = (await call('GET', `/v1/runs/${created.body.id}`, apiKey)).body.status;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe('completed');
    expect(output).toMatch(/the worker process exited \(SIGKILL\); restarting it in 1 s/);
    expect(output).toContain('the worker process restarted');
  }, 120_000);

  it('survives kill -9 of every process of npm start: started again on the same data, a run cut off completes', async () => {
    const created = await call('POST', '/v1/runs', apiKey, {
      templateId: 'plan-research-report',
      intake: { topic: 'survives a power cut' },
    });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 60_000;
    // Cut it off mid-work: once a step has started.
    while ((await call('GET', `/v1/runs/${created.body.id}`, apiKey)).body.status !== 'running') {
      if (Date.now() > deadline) throw new Error('the run never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    const tree = await treeOf(stack!.pid!);
    const names = tree.map((p) => p.args).join('\n');
    // bootstrap, `atelier dev`, its gateway and worker, the Temporal dev server and PostgreSQL with its backends.
    expect(names).toMatch(/bootstrap\.mjs dev/);
    expect(names).toMatch(/dist\/main\.js api/);
    expect(names).toMatch(/dist\/main\.js worker/);
    expect(names).toMatch(/temporal server start-dev/);
    expect(names).toMatch(/postgres -D/);
    // All at once, as a power cut or the OOM killer on the whole box would: nobody gets to clean up, so
    // PostgreSQL leaves its postmaster.pid and Temporal its SQLite file mid-write.
    // A process of the tree may end between the two (a PostgreSQL backend whose postmaster was just killed).
    for (const p of tree) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    }
    const gone = Date.now() + 30_000;
    while (tree.some((p) => isAlive(p.pid))) {
      if (Date.now() > gone) throw new Error(`still alive after SIGKILL:\n${tree.filter((p) => isAlive(p.pid)).map((p) => p.args)}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    await startStack();
    const done = Date.now() + 120_000;
    let status = '';
    while (Date.now() < done && status !== 'completed') {
      status = (await call('GET', `/v1/runs/${created.body.id}`, apiKey)).body.status;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe('completed');
    // Nothing of the first start is left, and what uses the data dir now is the second start's.
    const killed = new Set(tree.map((p) => p.pid));
    const now = new Set((await treeOf(stack!.pid!)).map((p) => p.pid));
    const { stdout } = await run('ps', ['-eo', 'pid=,args=']);
    const users = stdout
      .split('\n')
      .filter((l) => l.includes(dataDir))
      .map((l) => Number(l.trim().split(/\s+/)[0]));
    expect(users.filter((pid) => killed.has(pid) || !now.has(pid))).toEqual([]);
  }, 300_000);

  it('stops cleanly on Ctrl-C; the compiled build starts on the same data, Temporal history included', async () => {
    expect(await stopStack()).toBe(0);
    expect(await processesUsing(dataDir)).toEqual([]);

    await startStack('compiled');
    const supervised = await childProcesses(stack!.pid!);
    expect(supervised.map((c) => c.args.replace(/^\S+ /, ''))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\S*packages\/cli\/dist\/main\.js api$/),
        expect.stringMatching(/dist\/main\.js worker$/),
      ]),
    );
    expect(supervised.every((c) => !c.args.includes('tsx'))).toBe(true);
    const run = await call('GET', `/v1/runs/${completedRunId}`, apiKey);
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('completed');
    const connection = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
    try {
      const described = await new Client({ connection }).workflow.getHandle(completedRunId).describe();
      expect(described.status.name).toBe('COMPLETED');
      expect(described.typedSearchAttributes.getAll().map((p) => p.key.name)).toEqual(
        expect.arrayContaining(['RunStatus', 'TemplateId', 'WorkspaceId']),
      );
    } finally {
      await connection.close();
    }
    expect(await stopStack()).toBe(0);
  }, 240_000);

  it('stops all it started when signalled while still starting, so the next start finds nothing in its way', async () => {
    const starting = spawn(process.execPath, ['packages/cli/dist/main.js', 'dev'], {
      cwd: PROJECT_ROOT,
      env: await env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    starting.stdout!.on('data', (d) => (said += d));
    starting.stderr!.on('data', (d) => (said += d));
    const exited = new Promise<number | null>((resolve) => starting.once('exit', (code) => resolve(code)));
    // Signalled alone, as `kill` or a process manager would (the terminal's Ctrl-C reaches the whole group), once
    // its PostgreSQL and dev server run and its worker is starting.
    const deadline = Date.now() + 120_000;
    while (!(await childProcesses(starting.pid!)).some((c) => /dist\/main\.js worker$/.test(c.args))) {
      if (starting.exitCode !== null || Date.now() > deadline) throw new Error(`no worker started:\n${said}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const tree = await treeOf(starting.pid!);
    expect(tree.map((p) => p.args).join('\n')).toMatch(
      /postgres -D[\s\S]*temporal server start-dev|temporal server start-dev[\s\S]*postgres -D/,
    );
    starting.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(said).not.toContain('Error');
    expect(tree.filter((p) => isAlive(p.pid)).map((p) => p.args)).toEqual([]);
    expect(await processesUsing(dataDir)).toEqual([]);

    await startStack();
    expect((await call('GET', `/v1/runs/${completedRunId}`, apiKey)).body.status).toBe('completed');
    expect(await stopStack()).toBe(0);
  }, 300_000);
});
