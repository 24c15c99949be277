import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';

/**
 * @atelier/client as someone outside the repository gets it: built, packed with `npm pack`, installed with npm from
 * the tarball into three projects under the system's temporary directory (no workspace, no tsx, no atelier-source
 * condition), then type-checked under NodeNext (and Bundler), required from CommonJS, and imported from ESM against a
 * live gateway.
 */
const run = promisify(execFile);
const TSC = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// Children get none of this process's node options (vitest's, tsx's): a consumer's node has none.
const { NODE_OPTIONS: _nodeOptions, ...childEnv } = process.env;
const sh = (file: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  run(file, args, { cwd, env: { ...childEnv, ...env }, maxBuffer: 16 * 1024 * 1024 });
const npm = (args: string[], cwd: string) =>
  sh('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'], cwd);

const CONSUMER_TS = `import { type Run, type RunEvent, createAtelierClient, isBudgetRefusal, isIntakeInvalid, verifyWebhook } from '@atelier/client';

const atelier = createAtelierClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'atl_example' });
const { data, error } = await atelier.POST('/v1/runs', { body: { templateId: 'plan-research-report', intake: { topic: 'tides' } } });
if (isBudgetRefusal(error)) {
  const remaining: number = error.detail.remainingUsd;
  // @ts-expect-error remainingUsd is a number: the helper narrows to the schema, not to any
  const wrong: string = error.detail.remainingUsd;
  console.log(remaining, wrong);
} else if (isIntakeInvalid(error)) {
  const fields: string[] = error.detail.fields;
  const code: 'intake_invalid' = error.detail.code;
  console.log(fields, code);
}
const run: Run | undefined = data;
const done: Run = await atelier.waitForRun(run!.id, { onEvent: (e: RunEvent) => console.log(e.event) });
// @ts-expect-error not a path of the API: the client's paths are typed
await atelier.GET('/v1/no-such-path');
console.log(done.status, verifyWebhook('whsec_AAAA', new Headers(), ''));
`;

// The same package through \`require\` (a .cts file compiles to require calls): its types come from dist/cjs.
const CONSUMER_CTS = `import { AtelierApiError, TERMINAL_RUN_STATUSES, createAtelierClient } from '@atelier/client';

const atelier = createAtelierClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'atl_example' });
void atelier.GET('/v1/runs/{run_id}', { params: { path: { run_id: 'run-1' } } }).then(({ data }) => console.log(data?.status));
const terminal: readonly string[] = TERMINAL_RUN_STATUSES;
console.log(terminal, new AtelierApiError(404, null, 'GET', '/v1/runs/run-1').status);
`;

// Under NodeNext the installed declarations (ours and openapi-fetch's) are checked too, TypeScript's own lib files
// not; under Bundler only the consumer (same declarations, the question there is what the import resolves to).
const tsconfig = (module: string, moduleResolution: string, include: string[]) =>
  JSON.stringify({
    compilerOptions: {
      module,
      moduleResolution,
      target: 'ES2022',
      lib: ['ES2023', 'DOM'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: moduleResolution !== 'NodeNext',
      skipDefaultLibCheck: true,
    },
    include,
  });

// CommonJS: require, a raw call and a helper that rejects with the exported error class, and a webhook signed here.
const CHECK_CJS = `const { createHmac } = require('node:crypto');
const { AtelierApiError, createAtelierClient, isIntakeInvalid, verifyWebhook } = require('@atelier/client');

(async () => {
  const atelier = createAtelierClient({ baseUrl: process.env.ATELIER_URL, apiKey: process.env.ATELIER_API_KEY });
  const missing = await atelier.GET('/v1/runs/{run_id}', { params: { path: { run_id: 'run-00000000' } } });
  const rejected = await atelier.waitForRun('run-00000000', { timeoutMs: 10000 }).catch((err) => err);
  const key = Buffer.alloc(32, 7);
  const body = JSON.stringify({ type: 'document.published', slug: 'hello' });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = 'v1,' + createHmac('sha256', key).update('msg_1.' + timestamp + '.' + body).digest('base64');
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': signature };
  console.log(JSON.stringify({
    missingStatus: missing.response.status,
    rejectedIsApiError: rejected instanceof AtelierApiError,
    rejectedStatus: rejected.status,
    webhook: verifyWebhook('whsec_' + key.toString('base64'), headers, body),
    notIntakeInvalid: isIntakeInvalid({ detail: 'nope' }),
  }));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

// ESM: a run created, read back and followed to its end over the event stream; then a 422 and a 402 narrowed by the helpers.
const CHECK_MJS = `import { createAtelierClient, isBudgetRefusal, isIntakeInvalid } from '@atelier/client';

const baseUrl = process.env.ATELIER_URL;
const atelier = createAtelierClient({ baseUrl, apiKey: process.env.ATELIER_API_KEY });
const created = await atelier.POST('/v1/runs', { body: { templateId: 'plan-research-report', intake: { topic: 'tides', depth: 'brief' } } });
if (!created.data) throw new Error('run not created: ' + JSON.stringify(created.error));
const read = await atelier.GET('/v1/runs/{run_id}', { params: { path: { run_id: created.data.id } } });
const events = [];
const done = await atelier.waitForRun(created.data.id, { timeoutMs: 40000, onEvent: (e) => events.push(e.event) });

const invalid = await atelier.POST('/v1/runs', { body: { templateId: 'plan-research-report', intake: { depth: 'enormous' } } });
const budgeted = createAtelierClient({ baseUrl, apiKey: process.env.ATELIER_BUDGETED_API_KEY });
const refused = await budgeted.POST('/v1/runs', { body: { templateId: 'plan-research-report', intake: { topic: 'refused' } } });
console.log(JSON.stringify({
  created: { id: created.data.id, status: created.response.status },
  read: { id: read.data?.id, templateId: read.data?.templateId },
  done: { status: done.status, firstEvent: events[0], events: [...new Set(events)] },
  invalid: {
    status: invalid.response.status,
    isIntakeInvalid: isIntakeInvalid(invalid.error),
    isBudgetRefusal: isBudgetRefusal(invalid.error),
    fields: isIntakeInvalid(invalid.error) ? invalid.error.detail.fields : null,
  },
  refused: {
    status: refused.response.status,
    isBudgetRefusal: isBudgetRefusal(refused.error),
    isIntakeInvalid: isIntakeInvalid(refused.error),
    remainingUsd: isBudgetRefusal(refused.error) ? refused.error.detail.remainingUsd : null,
    reason: isBudgetRefusal(refused.error) ? refused.error.detail.reason : null,
  },
}));
`;

let h: Harness;
let work: string;
const projects = { types: '', cjs: '', esm: '' };
const env: Record<string, string> = {};
const timings: Record<string, number> = {};

async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    timings[name] = Math.round(performance.now() - started);
  }
}

async function project(name: keyof typeof projects, type: 'module' | 'commonjs', files: Record<string, string>, tarball: string) {
  const dir = path.join(work, name);
  await mkdir(dir);
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type }));
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  // --prefer-offline: openapi-fetch (the one dependency) from npm's cache once it has been fetched.
  await npm(['install', '--prefer-offline', tarball], dir);
  projects[name] = dir;
}

async function stackWithUsers() {
  h = await startHarness();
  const user: TestUser = await registerUser(h);
  const other = await registerUser(h, 'Budgeted');
  const budget = await h.request('POST', '/v1/budgets', {
    token: other.token,
    body: { workspaceId: other.workspaceId, scope: 'workspace', period: 'month', limitUsd: 0, enforcementMode: 'hard_stop' },
  });
  if (budget.status !== 201) throw new Error(`budget not created: ${budget.status} ${JSON.stringify(budget.body)}`);
  Object.assign(env, {
    ATELIER_URL: h.url,
    ATELIER_API_KEY: await createApiKey(h, user),
    ATELIER_BUDGETED_API_KEY: await createApiKey(h, other),
  });
}

async function packAndInstall() {
  await timed('build', () => sh(process.execPath, ['scripts/build.mjs', 'client'], PROJECT_ROOT));
  const { stdout } = await timed('pack', () =>
    npm(['pack', '--json', '--pack-destination', work], path.join(PROJECT_ROOT, 'packages', 'client')),
  );
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const tarball = path.join(work, packed!.filename);
  await timed('install', () =>
    Promise.all([
      project(
        'types',
        'module',
        {
          'consumer.ts': CONSUMER_TS,
          'consumer.cts': CONSUMER_CTS,
          'tsconfig.json': tsconfig('NodeNext', 'NodeNext', ['consumer.ts', 'consumer.cts']),
          'tsconfig.bundler.json': tsconfig('ESNext', 'Bundler', ['consumer.ts']),
        },
        tarball,
      ),
      project('cjs', 'commonjs', { 'check.js': CHECK_CJS }, tarball),
      project('esm', 'module', { 'check.js': CHECK_MJS }, tarball),
    ]),
  );
  return packed!.files.map((f) => f.path);
}

let packedFiles: string[];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'atelier-client-package-'));
  // The stack comes up while the package is built, packed and installed.
  [packedFiles] = await Promise.all([packAndInstall(), timed('stack', stackWithUsers)]);
}, 120_000);

afterAll(async () => {
  console.log(`client package test steps (ms): ${JSON.stringify(timings)}`);
  await h?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('@atelier/client from its packed tarball, outside the repository', () => {
  it('packs compiled JavaScript and declarations only, no TypeScript sources', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'dist/cjs/index.js']),
    );
    expect(packedFiles.filter((f) => f.startsWith('src/') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
  });

  it('type-checks a consumer under NodeNext (import and require) and under Bundler resolution', async () => {
    await timed('tsc', () =>
      Promise.all([
        sh(process.execPath, [TSC, '-p', 'tsconfig.json'], projects.types),
        sh(process.execPath, [TSC, '-p', 'tsconfig.bundler.json'], projects.types),
      ]).catch((err: { stdout?: string; message: string }) => {
        throw new Error(`tsc failed on the consumer:\n${err.stdout ?? ''}\n${err.message}`);
      }),
    );
  }, 60_000);

  it('runs from CommonJS with require', async () => {
    const { stdout } = await sh(process.execPath, ['check.js'], projects.cjs, env);
    expect(JSON.parse(stdout)).toEqual({
      missingStatus: 404,
      rejectedIsApiError: true,
      rejectedStatus: 404,
      webhook: { type: 'document.published', slug: 'hello' },
      notIntakeInvalid: false,
    });
  });

  it('runs from ESM against the gateway: a run created, read back and followed; a 422 and a 402 narrowed by the helpers', async () => {
    const { stdout } = await timed('esm', () => sh(process.execPath, ['check.js'], projects.esm, env));
    const out = JSON.parse(stdout);
    expect(out.created.status).toBe(201);
    expect(out.read).toEqual({ id: out.created.id, templateId: 'plan-research-report' });
    expect(out.done.status).toBe('completed');
    expect(out.done.firstEvent).toBe('snapshot');
    expect(out.invalid).toEqual({
      status: 422,
      isIntakeInvalid: true,
      isBudgetRefusal: false,
      fields: ['topic is required', 'depth must be one of brief, standard, deep (got "enormous")'],
    });
    expect(out.refused).toEqual({ status: 402, isBudgetRefusal: true, isIntakeInvalid: false, remainingUsd: 0, reason: 'hard_stop' });
  }, 60_000);
});
