import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAtelier } from '../support/atelier-cli';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';

/** `atelier runs rerun`, the real command as a child process, against a harness gateway and worker. */
let h: Harness;
let user: TestUser;
let apiKey: string;
let home: string;
let original: any;

const atelier = (args: string[]) => runAtelier(args, { HOME: home, ATELIER_URL: h.url, ATELIER_API_KEY: apiKey });
const countRuns = async () =>
  Number(
    (
      await h.db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
  apiKey = await createApiKey(h, user);
  home = await mkdtemp(path.join(tmpdir(), 'atelier-cli-home-'));
  const created = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: { templateId: 'plan-research-report', intake: { topic: 'lichens', depth: 'brief' } },
  });
  expect(created.status).toBe(201);
  original = await waitForRun(h, user.token, created.body.id);
}, 60_000);
afterAll(async () => {
  await h?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

// Each command is a process of its own that compiles the CLI through tsx: a few seconds each.
describe('atelier runs rerun', { timeout: 180_000 }, () => {
  it('--dry-run prints the estimate and creates nothing; --json prints the estimate and the body it would send', async () => {
    const before = await countRuns();
    const dry = await atelier(['runs', 'rerun', original.id, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim()).toMatch(
      new RegExp(
        `^dry run: a rerun of ${original.id} would start plan-research-report ${original.workflowVersion.replaceAll('.', '\\.')}, estimated \\$\\S+ \\(\\$\\S+ to \\$\\S+\\); nothing was created$`,
      ),
    );
    const json = await atelier(['runs', 'rerun', original.id, '--dry-run', '--intake-json', '{"topic":"mosses"}', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      estimate: { typical: original.totalCosts.estimatedUsd, currency: 'USD' },
      wouldCreate: { rerunOf: original.id, intake: { topic: 'mosses', depth: 'brief' }, workflowVersion: original.workflowVersion },
    });
    expect(await countRuns()).toBe(before);
  });

  it('starts the rerun with the intake override, prints its id and follows it with --watch; runs list --rerun-of finds it', async () => {
    const watched = await atelier(['runs', 'rerun', original.id, '--intake-json', '{"topic":"mosses"}', '--watch']);
    expect(watched.code, watched.stderr).toBe(0);
    const runId = new RegExp(
      `^run (run-[0-9a-f]{8}) pending \\(plan-research-report \\S+, estimated \\S+, rerun of ${original.id}\\)$`,
      'm',
    ).exec(watched.stdout)?.[1];
    expect(runId, watched.stdout).toBeDefined();
    expect(watched.stdout).toContain(`run ${runId} ended completed`);

    const listed = await atelier(['runs', 'list', '--rerun-of', original.id, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).items).toEqual([
      expect.objectContaining({ id: runId, rerunOf: original.id, intake: { topic: 'mosses', depth: 'brief' } }),
    ]);
  });

  it('refuses a bad --intake-json as usage (exit 2) and an intake the workflow refuses as an API error (exit 3)', async () => {
    const usage = await atelier(['runs', 'rerun', original.id, '--intake-json', '[1]']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--intake-json must be a JSON object');
    const refused = await atelier(['runs', 'rerun', original.id, '--intake-json', '{"depth":"endless"}']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('depth');
  });
});
