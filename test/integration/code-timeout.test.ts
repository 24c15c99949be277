import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTerminalRunStatus } from '@atelier/domain';
import { EXPRESSION_LIMITS } from '@atelier/engine/steps/code-expression';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * A workflow's code step with a catastrophic regular expression, on the real stack where the gateway and the
 * worker share one process (the harness's; the harder case, since `npm start` runs them apart): the step is
 * stopped at the expression time limit and fails the run with `code_timeout`, and meanwhile the public catalog
 * answers about as fast as idle.
 * In-process, the expression below would hold the event loop for minutes (each character doubles it; 28
 * took 7 s), and every request with it.
 */
let h: Harness;
let owner: TestUser;

const ID = 'build-runaway-regex';
const RUNAWAY = `${'a'.repeat(32)}!`;

const definition = {
  id: ID,
  name: 'Runaway regex',
  description: 'A code step whose regular expression backtracks catastrophically',
  artifactClass: 'knowledge',
  version: '2026.11.01',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 's', type: 'string', required: true, description: 'The text to match' }] },
  runtimeSteps: [{ id: 'step-1', name: 'Match', kind: 'code', expression: '{"m": $contains(intake.s, /^(a+)+$/)}' }],
  gates: [],
  providers: { textGenerator: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

/** One public catalog read, timed from this process (which is also the gateway's). */
async function timedCatalogRead(): Promise<number> {
  const started = performance.now();
  const res = await h.request('GET', '/v1/catalog/workflows');
  const ms = performance.now() - started;
  expect(res.status).toBe(200);
  return ms;
}

/** The nearest-rank 99th percentile. */
const p99 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.99) - 1]!;

beforeAll(async () => {
  h = await startHarness();
  owner = await registerUser(h, 'Owner');
  const created = await h.request('POST', '/v1/workflows', { token: owner.token, body: { definition } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const published = await h.request('POST', `/v1/workflows/${ID}/publish`, {
    token: owner.token,
    body: { version: '2026.11.01', visibility: 'internal' },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
});
afterAll(() => h?.stop());

describe('a code step whose expression runs away', () => {
  it('fails with code_timeout at the limit while the gateway keeps answering at its idle pace', async () => {
    for (let i = 0; i < 10; i++) await timedCatalogRead();
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push(await timedCatalogRead());

    const started = performance.now();
    const created = await h.request('POST', '/v1/runs', { token: owner.token, body: { templateId: ID, intake: { s: RUNAWAY } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const runId: string = created.body.id;

    // Sequential catalog reads from the start of the run to its end, so they span the expression's run.
    const during: number[] = [];
    let run: any;
    for (;;) {
      for (let i = 0; i < 10; i++) during.push(await timedCatalogRead());
      run = (await h.request('GET', `/v1/runs/${runId}`, { token: owner.token })).body;
      if (isTerminalRunStatus(run.status)) break;
      expect(performance.now() - started, 'the run is still going').toBeLessThan(60_000);
    }
    const failedAfterMs = performance.now() - started;
    const [idleP99, duringP99] = [p99(idle), p99(during)];
    console.info(
      `code_timeout: idle p99 ${idleP99.toFixed(1)} ms (n=${idle.length}); during p99 ${duringP99.toFixed(1)} ms (n=${during.length}, ` +
        `max ${Math.max(...during).toFixed(1)}); failed after ${failedAfterMs.toFixed(0)} ms (step ${run.runSteps?.[0]?.durationMs} ms)`,
    );

    expect(run).toMatchObject({ status: 'failed', errorCode: 'code_timeout' });
    expect(run.error).toBe(`step step-1: the expression ran longer than ${EXPRESSION_LIMITS.timeMs} ms and was stopped`);
    // Stopped once, at the limit: not retried like a transient failure.
    expect(run.runSteps[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(run.runSteps[0].durationMs).toBeGreaterThanOrEqual(EXPRESSION_LIMITS.timeMs);
    expect(failedAfterMs).toBeLessThan(EXPRESSION_LIMITS.timeMs + 5_000);
    expect(during.length).toBeGreaterThanOrEqual(50);
    expect(duringP99).toBeLessThan(Math.max(5 * idleP99, 250));
  });
});
