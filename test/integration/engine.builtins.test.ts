import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const start = (templateId: string, intake: Record<string, unknown>, labels: { tags?: string[]; metadata?: Record<string, string> } = {}) =>
  h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, ...labels } });
async function finished(
  templateId: string,
  intake: Record<string, unknown>,
  labels?: { tags?: string[]; metadata?: Record<string, string> },
) {
  const created = await start(templateId, intake, labels);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id);
}

describe('generate-product-shot', () => {
  it('makes a real WebP through the safety gate and ends in review under the approval gate', async () => {
    const run = await finished('generate-product-shot', { product: 'a ceramic teapot', setting: 'a sunny kitchen' });
    expect(run.status).toBe('review');
    expect(run.reviewGate).toEqual({
      id: 'client-approval',
      name: 'Client approval',
      holdFields: [{ name: 'usage', type: 'enum', options: ['web', 'print', 'social', 'internal'] }],
    });
    expect(run.runSteps.map((s: any) => [s.kind, s.status])).toEqual([
      ['llm', 'completed'],
      ['image', 'completed'],
      ['code', 'completed'],
    ]);
    expect(run.runSteps[1]).toMatchObject({ provider: 'local', model: 'local/image-1', costActualUsd: 0.02 });
    const artifact = await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token });
    expect(artifact.body).toMatchObject({ status: 'review', artifactClass: 'visual', artifactType: 'product-shot' });
    const content = artifact.body.content;
    expect(content).toMatchObject({ type: 'image', mimeType: 'image/webp', width: 1024, height: 1024, model: 'local/image-1' });
    expect(content.storageKey).toBe(`artifacts/product-shot/${run.artifactId}/raw.webp`);
    const bytes = await h.storage.get(content.storageKey);
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');
    expect(content.prompt).toMatch(/ceramic teapot/i);
  });

  it('fails at the safety gate with the verdict, the evidence and the cost of the calls made', async () => {
    const run = await finished('generate-product-shot', { product: 'a hunting rifle with ammunition' });
    expect(run.status).toBe('failed');
    expect(run.errorCode).toBe('gate_rejected');
    expect(run.error).toMatch(/Safety check rejected the work: unsafe: the work names weapons/);
    expect(run.failureDetails).toMatchObject({ gateId: 'safety', gateType: 'safety', reasons: ['weapons'] });
    expect(run.runSteps.map((s: any) => s.status)).toEqual(['failed', 'pending', 'pending']);
    expect(run.totalCosts.actualUsd).toBeGreaterThan(0);
    expect(run.artifactId).toBeNull();
  });

  it('refuses a run naming a character that cannot be used, before anything is recorded', async () => {
    const res = await start('generate-product-shot', { product: 'a teapot', characterId: 'char-unknown' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatchObject({ code: 'character_not_usable', reasons: ['character_not_found'] });
  });
});

describe('compose-brand-profile', () => {
  it('produces a proposal from notes, judged by the quality gate', async () => {
    const run = await finished('compose-brand-profile', {
      name: 'Fern & Finch',
      notes: 'An independent plant shop with a playful, caring voice.',
    });
    expect(run.status).toBe('completed');
    const artifact = await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token });
    expect(artifact.body).toMatchObject({ artifactClass: 'knowledge', artifactType: 'brand-profile', status: 'ready' });
    expect(artifact.body.content).toMatchObject({
      type: 'brand-profile',
      status: 'proposal',
      source: { notes: expect.stringContaining('plant shop') },
    });
    expect(artifact.body.content.profile.visual.colors.every((c: string) => /^#[0-9a-f]{6}$/i.test(c))).toBe(true);
  });

  it('fails with its failMessage when there is neither a url nor notes', async () => {
    const run = await finished('compose-brand-profile', { name: 'Nothing to go on' });
    expect(run).toMatchObject({
      status: 'failed',
      errorCode: 'requirement_failed',
      error: "give the brand's website (url) or some notes about it",
    });
    expect(run.totalCosts.actualUsd).toBe(0);
  });
});

describe('compose-article', () => {
  it('researches the topic in a sub-workflow when no report is supplied', async () => {
    const run = await finished('compose-article', { topic: 'community composting' }, { tags: ['compost'], metadata: { desk: 'garden' } });
    expect(run.status).toBe('completed');
    const research = run.runSteps[1];
    expect(research).toMatchObject({ kind: 'subWorkflow', status: 'completed' });
    const children = await h.db.selectFrom('runs').selectAll().where('parent_run_id', '=', run.id).execute();
    expect(children).toHaveLength(1);
    const child = children[0]!;
    expect(child).toMatchObject({ template_id: 'plan-research-report', workflow_version: '2026.11.01', status: 'completed' });
    expect(child.intake).toEqual({ topic: 'community composting', depth: 'standard' });
    const childRun = await h.request('GET', `/v1/runs/${child.id}`, { token: user.token });
    expect(childRun.body.parentRunId).toBe(run.id);
    // The step shows what the child spent, billed on the child: the parent's total has it, its own spend not.
    expect(research.costActualUsd).toBeGreaterThan(0);
    expect(research.costActualUsd).toBe(childRun.body.totalCosts.actualUsd);
    expect(run.totalCosts.actualUsd).toBeCloseTo(run.totalCosts.ownActualUsd + research.costActualUsd, 6);
    // Part of the parent's work, so found by the parent's labels.
    expect(childRun.body).toMatchObject({ tags: ['compost'], metadata: { desk: 'garden' } });
    const artifact = await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token });
    expect(artifact.body).toMatchObject({ artifactClass: 'knowledge', artifactType: 'article', sourceReportArtifactId: child.artifact_id });
    expect(artifact.body.content.body.length).toBeGreaterThanOrEqual(3);
    expect(artifact.body.content.sources.length).toBeGreaterThan(0);
  });

  it('skips the research step when a report is supplied and exposes it at inputs.sourceReport', async () => {
    const report = await finished('plan-research-report', { topic: 'tidal energy' });
    const run = await finished('compose-article', { sourceReport: report.artifactId });
    expect(run.status).toBe('completed');
    expect(run.runSteps[1]).toMatchObject({ kind: 'subWorkflow', status: 'skipped' });
    expect(await h.db.selectFrom('runs').select('id').where('parent_run_id', '=', run.id).execute()).toEqual([]);
    const artifact = await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token });
    expect(artifact.body.sourceReportArtifactId).toBe(report.artifactId);
    expect(artifact.body.content.sourceReportTitle).toMatch(/tidal energy/i);
  });

  it('refuses a supplied artifact of the wrong class, or one that does not exist, as an intake error', async () => {
    const shot = await finished('generate-product-shot', { product: 'a lamp' });
    const wrong = await start('compose-article', { sourceReport: shot.artifactId });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toEqual({
      error: 'intake_invalid',
      code: 'intake_invalid',
      fields: ['sourceReport must be a research/research-report (got visual/product-shot)'],
    });
    const missing = await start('compose-article', { sourceReport: 'artifact-doesnotexist' });
    expect(missing.body.detail.fields).toEqual(['sourceReport: there is no artifact artifact-doesnotexist in this workspace']);
    const other = await registerUser(h, 'Other');
    const foreign = await h.request('POST', '/v1/runs', {
      token: other.token,
      body: { templateId: 'compose-article', intake: { sourceReport: shot.artifactId } },
    });
    expect(foreign.status).toBe(422);
  });
});
