import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;
let apiKey: string;

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
  apiKey = await createApiKey(h, user);
});
afterAll(() => h?.stop());

describe('a plan-research-report run', () => {
  it('returns 201 pending at once, then completes with a research-report artifact', async () => {
    const created = await h.request('POST', '/v1/runs', {
      token: apiKey,
      body: { templateId: 'plan-research-report', intake: { topic: 'urban beekeeping' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('pending');
    expect(created.body.id).toMatch(/^run-[0-9a-f]{8}$/);
    expect(created.body.intake).toEqual({ topic: 'urban beekeeping', depth: 'standard' });
    expect(created.body.workflowVersion).toBe('2026.11.01');
    expect(created.body.specVersionHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(created.body.createdVia).toBe('api_key');
    expect(created.body.apiKeyName).toBe('test key');
    expect(created.headers.get('x-request-id')).toBeTruthy();

    const run = await waitForRun(h, apiKey, created.body.id);
    expect(run.status).toBe('completed');
    expect(run.runSteps.map((s: any) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(run.runSteps[0]).toMatchObject({ provider: 'local', model: 'local/text-1' });
    expect(run.runSteps[0].costActualUsd).toBeGreaterThan(0);
    const stepSum = run.runSteps.reduce((sum: number, s: any) => sum + s.costActualUsd, 0);
    expect(run.totalCosts.actualUsd).toBeCloseTo(stepSum, 6);
    expect(run.totalCosts.estimatedUsd).toBeGreaterThan(0);
    expect(run.durationMs).toBeGreaterThanOrEqual(0);

    const artifact = await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: apiKey });
    expect(artifact.status).toBe(200);
    expect(artifact.body).toMatchObject({
      runId: run.id,
      templateId: 'plan-research-report',
      artifactClass: 'research',
      artifactType: 'research-report',
      version: 1,
    });
    const content = artifact.body.content;
    expect(content.type).toBe('research-report');
    expect(content.title).toMatch(/urban beekeeping/i);
    expect(content.sections.length).toBeGreaterThanOrEqual(3);
    for (const section of content.sections) {
      expect(section.heading.length).toBeGreaterThan(0);
      expect(section.body.length).toBeGreaterThan(20);
    }
    expect(content.sources.length).toBeGreaterThan(0);
    expect(artifact.body.qa.status).toBe('passed');
    expect(artifact.body.qa.checks.every((c: any) => c.status === 'pass')).toBe(true);
  });

  it('pins the same spec hash for the same intake and a different one for another', async () => {
    const body = (topic: string) => ({ templateId: 'plan-research-report', intake: { topic, depth: 'brief' } });
    const a = await h.request('POST', '/v1/runs', { token: apiKey, body: body('tides') });
    const b = await h.request('POST', '/v1/runs', { token: apiKey, body: body('tides') });
    const c = await h.request('POST', '/v1/runs', { token: apiKey, body: body('moons') });
    expect(a.body.id).not.toBe(b.body.id);
    expect(a.body.specVersionHash).toBe(b.body.specVersionHash);
    expect(c.body.specVersionHash).not.toBe(a.body.specVersionHash);
  });

  it('lists runs newest first with filters and paging, and records session-created runs as session', async () => {
    const viaSession = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'ferns' } },
    });
    expect(viaSession.body.createdVia).toBe('session');
    await waitForRun(h, user.token, viaSession.body.id);
    const list = await h.request('GET', '/v1/runs?limit=2', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.total).toBeGreaterThanOrEqual(4);
    expect(list.body.items[0].id).toBe(viaSession.body.id);
    const completed = await h.request('GET', `/v1/runs?status=completed&workspaceId=${user.workspaceId}`, { token: user.token });
    expect(completed.body.items.every((r: any) => r.status === 'completed')).toBe(true);
    const page2 = await h.request('GET', '/v1/runs?limit=1&offset=1', { token: user.token });
    expect(page2.body.items[0].id).toBe(list.body.items[1].id);
  });
});
