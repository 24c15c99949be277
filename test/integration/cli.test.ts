import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type CliResult, runAtelier } from '../support/atelier-cli';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';

/** The real `atelier` command, as a child process, against a harness gateway with an API key. */
let h: Harness;
let user: TestUser;
let apiKey: string;
let home: string;

/** A one-workflow whose second step fails (a code step raising an error) when the intake asks it to. */
const MAYBE = {
  id: 'cli-maybe',
  name: 'Maybe (CLI test)',
  version: '2026.11.01',
  artifactClass: 'knowledge',
  cadence: 'on-demand',
  intakeSchema: {
    fields: [
      { name: 'topic', type: 'string', required: true },
      { name: 'fail', type: 'boolean', default: false },
    ],
  },
  runtimeSteps: [
    {
      id: 'step-1',
      name: 'Write',
      kind: 'llm',
      role: 'textGenerator',
      prompt: 'Write about "{{intake.topic}}"',
      jsonSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    },
    {
      id: 'step-2',
      name: 'Maybe fail',
      kind: 'code',
      expression: 'intake.fail ? $error("asked to fail") : { "title": steps.`step-1`.title }',
    },
  ],
  gates: [],
  providers: { textGenerator: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

function atelier(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  // HOME points at an empty directory: no saved login of the machine's user leaks in.
  return runAtelier(args, { HOME: home, ATELIER_URL: h.url, ATELIER_API_KEY: apiKey, ...env }, input);
}

beforeAll(async () => {
  // Steps take a moment (local providers with latency), so watches see them happen.
  h = await startHarness({ orderConcurrency: 3, localLatencyMs: 400 });
  user = await registerUser(h);
  apiKey = await createApiKey(h, user);
  await syncBuiltinWorkflows(h.db, [MAYBE as never]);
  home = await mkdtemp(path.join(tmpdir(), 'atelier-cli-home-'));
});
afterAll(async () => {
  await h?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

// Every command is a process of its own that compiles the CLI through tsx: a few seconds each, many more on a
// busy machine, so the tests that run several outlast the suite's 60 s default.
describe('atelier CLI against the API', { timeout: 180_000 }, () => {
  it('--help lists the user and operator commands; a subcommand has its own help; bad usage exits 2', async () => {
    const help = await atelier(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['init', 'login', 'runs', 'orders', 'queue', 'artifacts', 'workflows', 'dev', 'worker', 'migrate', 'operators'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const runsHelp = await atelier(['runs', '--help']);
    expect(runsHelp.code).toBe(0);
    for (const sub of ['start', 'rerun', 'list', 'show', 'watch', 'cancel', 'finalize', 'reset'])
      expect(runsHelp.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    const watchHelp = await atelier(['orders', 'watch', '--help']);
    expect(watchHelp.code).toBe(0);
    expect(watchHelp.stdout).toContain('--json');
    expect((await atelier(['runs', 'start'])).code).toBe(2);
    expect((await atelier(['runs', 'frobnicate'])).code).toBe(2);
    const noKey = await atelier(['runs', 'list'], { ATELIER_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('no API key');
  });

  it('an API command loads neither Temporal’s worker, the database driver nor the contract’s schemas (the operator commands’ weight)', async () => {
    const preload = path.join(PROJECT_ROOT, 'test', 'support', 'loaded-packages.cjs');
    const { code, stderr } = await atelier(['runs', 'list', '--help'], { NODE_OPTIONS: `--require ${preload}` });
    expect(code).toBe(0);
    const loaded = /^loaded-packages: (.*)$/m.exec(stderr)?.[1]?.split(' ') ?? [];
    expect(loaded).toContain('commander');
    for (const heavy of [
      '@temporalio/worker',
      '@temporalio/client',
      'pg',
      'sharp',
      '@google-cloud/storage',
      'webpack',
      '@asteasolutions/zod-to-openapi',
    ])
      expect(loaded).not.toContain(heavy);
  });

  it('runs start --json, then runs watch prints each step and exits 0 when the run completed', async () => {
    const started = await atelier(['runs', 'start', 'plan-research-report', '--set', 'topic=tides', '--set', 'depth=brief', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const run = JSON.parse(started.stdout);
    expect(run).toMatchObject({ status: 'pending', templateId: 'plan-research-report', intake: { topic: 'tides', depth: 'brief' } });

    const watched = await atelier(['runs', 'watch', run.id]);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/step 1 \S+ .*completed \$/);
    expect(watched.stdout).toMatch(/step 3 \S+ .*completed \$/);
    expect(watched.stdout).toMatch(/ended completed \(artifact artifact-\S+\)/);
    expect(watched.stdout).toContain(`run ${run.id} ended completed`);

    // Started and watched in one process: every step shows up live as it starts and completes.
    const live = await atelier(['runs', 'start', 'plan-research-report', '--set', 'topic=moons', '--set', 'depth=brief', '--watch']);
    expect(live.code, live.stderr).toBe(0);
    for (const n of [1, 2, 3]) {
      expect(live.stdout).toMatch(new RegExp(`step ${n} \\S+ .*started`));
      expect(live.stdout).toMatch(new RegExp(`step ${n} \\S+ .*completed \\$`));
    }
    expect(live.stdout).toMatch(/run running/);
    expect(live.stdout).toMatch(/artifact artifact-\S+ created/);
    expect(live.stdout).toMatch(/ended completed/);

    const shown = await atelier(['runs', 'show', run.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^status\s+completed$/m);
    const listed = await atelier(['runs', 'list', '--status', 'completed', '--json']);
    expect(JSON.parse(listed.stdout).items.map((r: { id: string }) => r.id)).toContain(run.id);
  });

  it('runs start --tag/--meta labels a run; runs list --tag/--meta finds it; show and list print its tags', async () => {
    const tag = `cli-${Date.now()}`;
    const args = ['runs', 'start', 'plan-research-report', '--set', 'topic=labels', '--tag', tag, '--tag', 'second'];
    const started = await atelier([...args, '--meta', 'ticket=OPS-1=a', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const run = JSON.parse(started.stdout);
    expect(run).toMatchObject({ tags: [tag, 'second'], metadata: { ticket: 'OPS-1=a' } });
    expect((await atelier([...args, '--meta', 'no-equals'])).code).toBe(2);

    const listed = await atelier(['runs', 'list', '--tag', tag, '--tag', 'second', '--meta', 'ticket=OPS-1=a', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).items.map((r: { id: string }) => r.id)).toEqual([run.id]);
    const table = await atelier(['runs', 'list', '--tag', tag]);
    expect(table.stdout).toMatch(new RegExp(`^${run.id}\\s.*\\s${tag} second$`, 'm'));
    expect((await atelier(['runs', 'list', '--tag', tag, '--meta', 'ticket=other', '--json'])).stdout).toContain('"items": []');

    const shown = await atelier(['runs', 'show', run.id]);
    expect(shown.stdout).toMatch(new RegExp(`^tags\\s+${tag} second$`, 'm'));
    expect(shown.stdout).toMatch(/^meta ticket\s+OPS-1=a$/m);
  });

  it('workflows show lists the intake fields: name, type, required, options, default and description', async () => {
    const shown = await atelier(['workflows', 'show', 'plan-research-report']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^Intake \(give each with --set name=value/m);
    expect(shown.stdout).toMatch(/^field\s+type\s+required\s+notes$/m);
    expect(shown.stdout).toMatch(/^topic\s+string\s+yes\s+What the report is about/m);
    expect(shown.stdout).toMatch(/^depth\s+enum\s+no\s+one of brief, standard, deep; default "standard"; How thorough/m);
  });

  it('a watched run that stops in review says how to decide it; queue list shows what the hold needs; queue approve decides', async () => {
    const watched = await atelier(['runs', 'start', 'generate-product-shot', '--set', 'product=a brass teapot', '--watch']);
    expect(watched.code, watched.stderr).toBe(0);
    const runId = /^run (run-[0-9a-f]{8}) /m.exec(watched.stdout)?.[1];
    expect(runId, watched.stdout).toBeDefined();
    expect(watched.stdout).toContain(`run ${runId} ended review`);
    expect(watched.stdout).toMatch(
      new RegExp(
        `^run ${runId} waits in review at the gate "Client approval" \\(client-approval\\) with artifact artifact-\\S+; it needs usage \\(one of web, print, social, internal\\)\\.$`,
        'm',
      ),
    );
    expect(watched.stdout).toContain(`  atelier queue approve ${runId} --set 'usage=<web|print|social|internal>'`);
    expect(watched.stdout).toContain(`  atelier queue reject ${runId} --note '<why>'`);

    const listed = await atelier(['queue', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    const block = listed.stdout.slice(listed.stdout.indexOf(runId!));
    expect(block).toMatch(/^ {2}gate\s+Client approval \(client-approval\)$/m);
    expect(block).toMatch(/^ {2}needs\s+usage \(one of web, print, social, internal\)$/m);
    expect(block).toMatch(/^ {2}intake\s+product=a brass teapot/m);
    expect(block).toMatch(new RegExp(`^ {2}decide\\s+atelier queue approve ${runId} --set`, 'm'));

    const shown = await atelier(['runs', 'show', runId!]);
    expect(shown.stdout).toContain(`atelier queue approve ${runId}`);

    const approved = await atelier(['queue', 'approve', runId!, '--set', 'usage=web', '--note', 'fine']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`run ${runId} approved: it is completed`);
    const again = await atelier(['queue', 'reject', runId!]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/^error: Conflict: .*\(invalid_transition\)\.$/m);
  });

  it('artifacts download writes a research report as report.md beside artifact.json', async () => {
    const started = await atelier(['runs', 'start', 'plan-research-report', '--set', 'topic=estuaries', '--set', 'depth=brief', '--json']);
    const run = JSON.parse(started.stdout);
    const finished = await waitForRun(h, user.token, run.id);
    expect(finished.status).toBe('completed');
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-cli-download-'));
    try {
      const downloaded = await atelier(['artifacts', 'download', finished.artifactId, '--dir', dir]);
      expect(downloaded.code, downloaded.stderr).toBe(0);
      expect(downloaded.stdout).toContain(`wrote ${path.join(dir, 'artifact.json')}`);
      expect(downloaded.stdout).toMatch(new RegExp(`^wrote ${path.join(dir, 'report.md')} \\(\\d+ bytes\\)$`, 'm'));
      const artifact = JSON.parse(await readFile(path.join(dir, 'artifact.json'), 'utf8'));
      const report = await readFile(path.join(dir, 'report.md'), 'utf8');
      expect(report.startsWith(`# ${artifact.content.title}\n\n${artifact.content.summary}\n\n## `)).toBe(true);
      for (const section of artifact.content.sections) expect(report).toContain(`## ${section.heading}\n\n${section.body}`);
      const json = await atelier(['artifacts', 'download', finished.artifactId, '--dir', dir, '--json']);
      expect(JSON.parse(json.stdout)).toMatchObject({ reportPath: path.join(dir, 'report.md'), files: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs watch exits 1 when the run fails (a code step that raises)', async () => {
    const started = await atelier(['runs', 'start', 'cli-maybe', '--intake', '{"topic":"owls","fail":true}', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const run = JSON.parse(started.stdout);
    const watched = await atelier(['runs', 'watch', run.id]);
    expect(watched.code, watched.stdout + watched.stderr).toBe(1);
    expect(watched.stdout).toMatch(/step 2 step-2 .*FAILED/);
    expect(watched.stdout).toMatch(new RegExp(`run ${run.id} ended failed`));
    const json = await atelier(['runs', 'watch', run.id, '--json']);
    expect(json.code).toBe(1);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ event: 'end', data: { id: run.id, status: 'failed' } });
  });

  it('orders plan, start and watch a 3-child order: progress to the end, exit 0', async () => {
    const planned = await atelier([
      'orders',
      'plan',
      'plan-research-report',
      '--intake-base',
      '{"depth":"brief"}',
      '--items',
      '[{"topic":"owls"},{"topic":"larks"},{"topic":"wrens"}]',
      '--budget-limit',
      '5',
      '--json',
    ]);
    expect(planned.code, planned.stderr).toBe(0);
    const order = JSON.parse(planned.stdout);
    expect(order).toMatchObject({ status: 'planned', targetCount: 3 });
    const started = await atelier(['orders', 'start', order.id]);
    expect(started.code, started.stderr).toBe(0);
    const watched = await atelier(['orders', 'watch', order.id, '--interval', '200']);
    expect(watched.code, watched.stderr).toBe(0);
    // Not a terminal: plain progress lines, never the bar's control sequences.
    expect(watched.stdout).not.toContain('\u001b[');
    expect(watched.stdout).toMatch(
      new RegExp(
        `^${order.id} (running|completed): \\d/3 settled \\(succeeded \\d, failed 0, running \\d\\), spent \\$[\\d.]+ of \\$5\\.00, [\\d.]+/min, ETA \\S+$`,
        'm',
      ),
    );
    expect(watched.stdout).toMatch(new RegExp(`${order.id} completed: 3/3 settled`));
    expect(watched.stdout).toContain(`order ${order.id} ended completed: 3 succeeded, 0 failed, 0 cancelled of 3`);
    const shown = await atelier(['orders', 'show', order.id, '--json']);
    expect(JSON.parse(shown.stdout).counts.succeeded).toBe(3);
  });

  it('an API error exits 3 with a sentence on stderr (the raw body with --json)', async () => {
    const missing = await atelier(['runs', 'show', 'run-00000000']);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: Not found: .*run-00000000.*\.$/m);
    expect(missing.stderr).toContain('(GET /v1/runs/run-00000000 answered 404; --json prints the error body)');
    expect(missing.stderr).not.toContain('"detail"');
    const raw = await atelier(['runs', 'show', 'run-00000000', '--json']);
    expect(raw.code).toBe(3);
    expect(raw.stdout).toBe('');
    expect(typeof JSON.parse(raw.stderr).detail).toBe('string');

    const invalid = await atelier(['runs', 'start', 'plan-research-report', '--intake', '{"nope":1}']);
    expect(invalid.code).toBe(3);
    expect(invalid.stderr).toMatch(/^error: The intake is not valid:\n {2}- .*topic/m);
    expect(invalid.stderr).toContain('answered 422');
    const invalidJson = await atelier(['runs', 'start', 'plan-research-report', '--intake', '{"nope":1}', '--json']);
    expect(JSON.parse(invalidJson.stderr).detail).toMatchObject({ code: 'intake_invalid', fields: [expect.stringContaining('topic')] });

    const badKey = await atelier(['runs', 'list'], { ATELIER_API_KEY: 'atl_not_a_key' });
    expect(badKey.code).toBe(3);
    expect(badKey.stderr).toMatch(/^error: Not signed in: .*atelier init/m);
    expect(badKey.stderr).toContain('answered 401');

    // A workspace budget smaller than any run: 402, said in dollars.
    const poor = await registerUser(h, 'Poor');
    const budget = await h.request('POST', '/v1/budgets', {
      token: poor.token,
      body: { workspaceId: poor.workspaceId, scope: 'workspace', period: 'month', limitUsd: 0.00001, enforcementMode: 'hard_stop' },
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    const refused = await atelier(['runs', 'start', 'plan-research-report', '--set', 'topic=gold'], {
      ATELIER_API_KEY: await createApiKey(h, poor),
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(
      /^error: Budget exceeded: \$0\.00001 left of \$0\.00001 in the workspace budget \(spent \$0\.00\), and this is estimated at \$0\.\d+; the limit is a hard stop\./m,
    );
    expect(refused.stderr).toContain('answered 402');
  });

  it('login saves the URL and key with mode 0600 and later commands use them', async () => {
    const login = await atelier(['login', '--url', h.url, '--api-key', apiKey], { ATELIER_URL: '', ATELIER_API_KEY: '' });
    expect(login.code, login.stderr).toBe(0);
    const file = path.join(home, '.config', 'atelier', 'credentials.json');
    expect(login.stdout).toContain(file);
    const { stat } = await import('node:fs/promises');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: h.url, apiKey });
    const listed = await atelier(['workflows', 'list', '--json'], { ATELIER_URL: '', ATELIER_API_KEY: '' });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).items.map((w: { id: string }) => w.id)).toContain('plan-research-report');
  });

  it('init registers, creates an API key and saves the login; run again it signs in instead', async () => {
    const newHome = await mkdtemp(path.join(tmpdir(), 'atelier-cli-init-'));
    const email = `init-${Date.now()}@example.com`;
    const fresh = { HOME: newHome, ATELIER_URL: h.url, ATELIER_API_KEY: '' };
    try {
      const first = await atelier(
        ['init', '--email', email, '--password-stdin', '--name', 'New Person'],
        fresh,
        'correct horse battery staple\n',
      );
      expect(first.code, first.stderr).toBe(0);
      const file = path.join(newHome, '.config', 'atelier', 'credentials.json');
      expect(first.stdout).toContain(`registered ${email} (New Person) at ${h.url}`);
      expect(first.stdout).toMatch(/created API key "atelier CLI on [^"]+": atl_\S+/);
      expect(first.stdout).toContain('its secret is shown this once');
      expect(first.stdout).toContain(`saved the login (URL and key) to ${file} (mode 0600)`);
      const saved = JSON.parse(await readFile(file, 'utf8'));
      expect(saved).toEqual({ url: h.url, apiKey: expect.stringMatching(/^atl_/) });
      expect(first.stdout).toContain(saved.apiKey);
      // The saved login is enough for the next command: no flags, no environment.
      const listed = await atelier(['runs', 'list', '--json'], { ...fresh, ATELIER_URL: '' });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toMatchObject({ items: [], total: 0 });

      // The account exists: init signs in (password from the environment) and saves a new key.
      const again = await atelier(['init', '--email', email, '--json'], { ...fresh, ATELIER_PASSWORD: 'correct horse battery staple' });
      expect(again.code, again.stderr).toBe(0);
      const answer = JSON.parse(again.stdout);
      expect(answer).toMatchObject({ registered: false, url: h.url, user: { email, name: 'New Person' }, savedTo: file });
      expect(answer.apiKey.secret).not.toBe(saved.apiKey);
      expect(JSON.parse(await readFile(file, 'utf8')).apiKey).toBe(answer.apiKey.secret);

      const wrong = await atelier(['init', '--email', email, '--password', 'not the password at all'], fresh);
      expect(wrong.code).toBe(3);
      expect(wrong.stderr).toContain(
        `error: an account with ${email} exists and this is not its password\n  (POST /v1/auth/login answered 401)`,
      );
      const weak = await atelier(['init', '--email', `weak-${email}`, '--password', 'short'], fresh);
      expect(weak.code).toBe(3);
      expect(weak.stderr).toMatch(/^error: The request is not valid:\n {2}- body\.password: /m);
      const weakJson = await atelier(['init', '--email', `weak-${email}`, '--password', 'short', '--json'], fresh);
      expect(JSON.parse(weakJson.stderr).detail).toContainEqual(expect.objectContaining({ loc: ['body', 'password'] }));
      const noEmail = await atelier(['init', '--password', 'whatever whatever'], fresh);
      expect(noEmail.code).toBe(2);
      expect(noEmail.stderr).toContain('init needs --email');
    } finally {
      await rm(newHome, { recursive: true, force: true });
    }
  });

  it('login --api-key without --url saves the gateway `atelier dev` serves (ATELIER_API_PORT, default 8080)', async () => {
    const port = new URL(h.url).port;
    const login = await atelier(['login', '--api-key', apiKey], { ATELIER_URL: '', ATELIER_API_KEY: '', ATELIER_API_PORT: port });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`at http://127.0.0.1:${port}`);
    const file = path.join(home, '.config', 'atelier', 'credentials.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: `http://127.0.0.1:${port}`, apiKey });
    const unverified = await atelier(['login', '--api-key', 'atl_later', '--no-verify'], {
      ATELIER_URL: '',
      ATELIER_API_KEY: '',
      ATELIER_API_PORT: '',
      PORT: '',
    });
    expect(unverified.code, unverified.stderr).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: 'http://127.0.0.1:8080', apiKey: 'atl_later' });
  });
});
