import { existsSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { eventMessageId, runEventKey, syncBuiltinWorkflows } from '@atelier/db';
import { webhookTaskQueue } from '@atelier/engine/webhooks/index';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun, executionClosed } from '../support/harness';

/**
 * Recorded histories of real runs are replayed against the current workflow code. The files under
 * test/histories are committed: a change to the run workflow that would break runs already in flight
 * fails here. A scenario whose file is missing is recorded on the spot (UPDATE_HISTORIES=1 re-records
 * all of them, which is only right when a change is deliberately incompatible and versioned).
 */
const HISTORIES = path.join(PROJECT_ROOT, 'test', 'histories');
let h: Harness;
let user: TestUser;

const BROKEN = {
  id: 'build-broken-report',
  name: 'Broken report (replay fixture)',
  version: '2026.11.01',
  artifactClass: 'research',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
  runtimeSteps: [
    {
      id: 'step-1',
      name: 'Outline',
      kind: 'llm',
      role: 'researcher',
      prompt: 'Outline "{{intake.topic}}"',
      jsonSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    },
    { id: 'step-2', name: 'Assemble from the wrong input', kind: 'code', function: 'researchReport', inputPath: 'intake.topic' },
  ],
  gates: [],
  providers: { researcher: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'research', artifactType: 'research-report', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'research', artifactType: 'research-report' }],
};

/** A likeness character the gate lets through (subject, active consent, frozen version, local copy accepted). */
async function usableCharacter(referenceArtifactId: string): Promise<string> {
  const post = (p: string, body: unknown) => h.request('POST', p, { token: user.token, body }).then((r) => r.body);
  const subject = await post(`/v1/workspaces/${user.workspaceId}/subjects`, {
    displayName: 'Replay Model',
    attestations: { adult: true, notPolitical: true },
  });
  const consent = await post(`/v1/subjects/${subject.id}/consents`, {
    grantor: 'subject',
    coversLikeness: true,
    coversVoice: false,
    scope: { uses: ['*'], media: ['*'], channels: ['*'], territories: ['*'] },
    startsOn: '2026-01-01',
    endsOn: '2035-12-31',
    evidenceKind: 'signed_release',
    evidenceSha256: 'a'.repeat(64),
  });
  await post(`/v1/likeness-consents/${consent.id}:activate`, {});
  const project = await post(`/v1/workspaces/${user.workspaceId}/projects`, { name: 'Replay cast' });
  const character = await post('/v1/characters', { projectId: project.id, name: 'Replay', format: 'likeness' });
  await post(`/v1/characters/${character.id}/references`, { role: 'portrait', artifactId: referenceArtifactId });
  await post(`/v1/characters/${character.id}/versions`, { subjectId: subject.id });
  await post(`/v1/characters/${character.id}/versions/1/bindings`, {
    provider: 'local',
    assetKind: 'likeness',
    assetId: 'replay',
    providerConsentStatus: 'accepted',
  });
  return character.id;
}

/**
 * The run workflow shape histories are recorded in now, named after the change that made it (RunShape 7,
 * run-types.ts: `quick-steps`, a quick step runs in a local activity). Histories of a shape stay while a
 * supported release can have executions of it open: the previous release's shape included, so runs in
 * flight across a deploy are covered (`decision-wait`, shape 6, and `lean-step-inputs`, shape 5, which
 * children of older parents still take); a new shape adds files instead of replacing them, and a retired
 * shape's files go with its code (docs/operations.md, Retiring a workflow shape).
 */
const SHAPE = 'quick-steps';

/** Every patch marker a history records, and every `TemporalChangeVersion` upsert that comes with one. */
function patchEvents(history: { events?: Array<any> | null }) {
  return (history.events ?? []).filter(
    (e) =>
      e.markerRecordedEventAttributes?.markerName === 'core_patch' ||
      e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.TemporalChangeVersion,
  );
}

/**
 * The shape webhook delivery histories are recorded in (`own-queue`: the delivery and its attempts on the
 * webhook task queue, the input saying so), the only one left: `run-queue` (the delivery and its attempts on
 * the run queue) and `run-queue-patched` (the `webhook-queue` patch) were retired with their histories.
 */
const WEBHOOK_SHAPE = 'own-queue';

async function record(name: string, runId: string, shape = SHAPE) {
  const file = path.join(HISTORIES, `${name}.${shape}.json`);
  if (existsSync(file) && process.env.UPDATE_HISTORIES !== '1') return;
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  await mkdir(HISTORIES, { recursive: true });
  await writeFile(file, `${historyToJSON(history)}\n`);
}

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: 300 });
  user = await registerUser(h);
  await syncBuiltinWorkflows(h.db, [BROKEN as never]);
});
afterAll(() => h?.stop());

describe('the run workflow stays deterministic', () => {
  it('records completed, cancelled, failed, gated, reviewed and parent-child runs of every built-in', async () => {
    const start = (templateId: string, topic: string, intake: Record<string, unknown> = { topic }) =>
      h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake } }).then((r) => r.body.id as string);

    const completed = await start('plan-research-report', 'replayed history');
    const failed = await start('build-broken-report', 'a string, not a draft');
    const cancelled = await start('plan-research-report', 'cancelled history');
    await waitForRun(h, user.token, cancelled, (r) => r.status === 'running');
    await h.request('POST', `/v1/runs/${cancelled}/cancel`, { token: user.token });

    expect((await waitForRun(h, user.token, completed)).status).toBe('completed');
    const failedRun = await waitForRun(h, user.token, failed);
    expect(failedRun).toMatchObject({ status: 'failed', errorCode: 'step_invalid' });
    expect(failedRun.error).toMatch(/must be an object/);
    expect(failedRun.runSteps.map((s: any) => s.status)).toEqual(['completed', 'failed']);
    expect((await waitForRun(h, user.token, cancelled)).status).toBe('cancelled');

    const review = await start('generate-product-shot', '', { product: 'a copper kettle' });
    const rejected = await start('generate-product-shot', '', { product: 'a rifle' });
    const article = await start('compose-article', 'river restoration');
    const profile = await h
      .request('POST', '/v1/runs', {
        token: user.token,
        body: { templateId: 'compose-brand-profile', intake: { notes: 'A bakery with a warm, local voice.' } },
      })
      .then((r) => r.body.id as string);
    expect((await waitForRun(h, user.token, review)).status).toBe('review');
    expect((await waitForRun(h, user.token, rejected)).errorCode).toBe('gate_rejected');
    expect((await waitForRun(h, user.token, article)).status).toBe('completed');
    expect((await waitForRun(h, user.token, profile)).status).toBe('completed');

    const illustration = await start('generate-illustration', '', { subject: 'a lantern', transparentBackground: true });
    const clip = await start('generate-video-clip', '', { prompt: 'a kite in the wind', durationSeconds: 1 });
    const drawn = await waitForRun(h, user.token, illustration);
    expect(drawn.status).toBe('completed');
    const clipRun = await waitForRun(h, user.token, clip);
    expect(clipRun.status).toBe('completed');
    const cutout = await start('remove-background', '', { image: drawn.artifactId });
    const film = await start('build-film-cut', '', { clips: [{ artifactId: clipRun.artifactId, seconds: 1 }] });
    const cast = await start('generate-product-shot', '', { product: 'a lantern', characterId: await usableCharacter(drawn.artifactId) });
    expect((await waitForRun(h, user.token, cutout)).status).toBe('completed');
    expect((await waitForRun(h, user.token, film)).status).toBe('completed');
    expect((await waitForRun(h, user.token, cast)).status).toBe('review');

    const scenarios = [
      ['research-report-completed', completed],
      ['run-failed-step-invalid', failed],
      ['run-cancelled', cancelled],
      ['product-shot-review', review],
      ['product-shot-gate-rejected', rejected],
      ['article-with-sub-workflow', article],
      ['brand-profile-completed', profile],
      ['illustration-completed', illustration],
      ['remove-background-completed', cutout],
      ['video-clip-completed', clip],
      ['film-cut-completed', film],
      ['product-shot-with-character', cast],
    ] as const;
    // A run in review waits open for its decision (shape 6); decided, it writes the status and closes.
    for (const id of [review, cast]) {
      expect((await h.temporal.workflow.getHandle(id).describe()).status.name).toBe('RUNNING');
      const decided = await h.request('POST', `/v1/queue/${id}/decision`, {
        token: user.token,
        body: { decision: id === review ? 'approve' : 'reject', ...(id === review ? { patch: { usage: 'web' } } : {}) },
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    }
    // On-call reads the run's outcome from Temporal: a failed or gate-rejected run's execution ends Failed,
    // a cancelled one Canceled, the rest Completed (a decided run in review included).
    const expected: Record<string, string> = {
      'run-failed-step-invalid': 'FAILED',
      'run-cancelled': 'CANCELLED',
      'product-shot-gate-rejected': 'FAILED',
    };
    for (const [name, id] of scenarios) {
      // The workflow result is written after the last activity; wait for Temporal to close the execution.
      const closed = await executionClosed(h, id);
      expect(closed.status, name).toBe(expected[name] ?? 'COMPLETED');
      // A Canceled execution carries no result (Temporal records none); the others carry the outcome.
      if (closed.status !== 'CANCELLED') expect(closed.outcome, name).toMatchObject({ runId: id });
      await record(name, id);
    }
    // Each step is named in the history: its activity id is `<n>-<step id>`, its summary `<n> · <name> (<kind>)`.
    const history = await h.temporal.workflow.getHandle(completed).fetchHistory();
    // A new execution's input names its shape, so it records no patch marker: each would cost an event and a
    // TemporalChangeVersion upsert (another event and a visibility write).
    expect(patchEvents(history)).toEqual([]);
    // Its last step settled the run (shape 2): no settlement local activity. Its one marker is that last
    // step's own: a code step is quick, so it ran in a local activity (shape 7).
    const markers = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes);
    expect(markers.map((e) => e.markerRecordedEventAttributes!.markerName)).toEqual(['core_local_activity']);
    const marked = h.temporal.options.loadedDataConverter.payloadConverter.fromPayload<{ activity_type: string }>(
      markers[0]!.markerRecordedEventAttributes!.details!.data!.payloads![0]!,
    );
    expect(marked.activity_type).toBe('executeQuickStep');
    // The Web UI's timeline names it as it names a step's activity.
    expect(h.temporal.options.loadedDataConverter.payloadConverter.fromPayload(markers[0]!.userMetadata!.summary!)).toBe(
      '3 · Assemble the report (code)',
    );
    for (const [name, id] of scenarios) expect(patchEvents(await h.temporal.workflow.getHandle(id).fetchHistory()), name).toEqual([]);
    // A child run's input (prepareChildRun's) names its shape too, and so records no patch marker either.
    const parent = await h.temporal.workflow.getHandle(article).fetchHistory();
    const childStart = parent.events!.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)!;
    const childId = childStart.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId!;
    const childInput = h.temporal.options.loadedDataConverter.payloadConverter.fromPayload<any>(
      childStart.startChildWorkflowExecutionInitiatedEventAttributes!.input!.payloads![0]!,
    );
    expect(childInput).toMatchObject({ shape: 7 });
    // The child may wait open in review after the parent closed: the parent's close only asks it to cancel.
    expect(childStart.startChildWorkflowExecutionInitiatedEventAttributes!.parentClosePolicy).toBe(3); // REQUEST_CANCEL
    // A run in review wrote its status twice: as it settled, and as it was decided.
    const statusesOf = async (id: string) =>
      ((await h.temporal.workflow.getHandle(id).fetchHistory()).events ?? []).flatMap((e) => {
        const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.RunStatus;
        return field ? [h.temporal.options.loadedDataConverter.payloadConverter.fromPayload(field)] : [];
      });
    expect(await statusesOf(review)).toEqual(['review', 'completed']);
    expect(await statusesOf(cast)).toEqual(['review', 'rejected']);
    expect(patchEvents(await h.temporal.workflow.getHandle(childId).fetchHistory())).toEqual([]);
    const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
    // The code step is not among them: it ran in the workflow task that reached it (the marker above).
    expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes!.activityId)).toEqual(['1-step-1', '2-step-2']);
    const summaries = await Promise.all(
      scheduled.map((e) => h.temporal.options.loadedDataConverter.payloadConverter.fromPayload(e.userMetadata!.summary!)),
    );
    expect(summaries).toEqual(['1 · Outline the report (llm)', '2 · Write the sections (llm)']);
    // The definition goes by reference: the run starts from its plan and the definition's hash, and each step's
    // activity is named by the hash, so no prompt or jsonSchema is written into the history.
    const converter = h.temporal.options.loadedDataConverter.payloadConverter;
    const started = converter.fromPayload<any>(history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!);
    expect(started).toMatchObject({ shape: 7, plan: { id: 'plan-research-report' }, definitionHash: expect.stringMatching(/^sha256:/) });
    expect(started).not.toHaveProperty('definition');
    // Shape 3: RunStatus is written once, as the run settles (the start wrote `queued`).
    const statusWrites = (history.events ?? []).flatMap((e) => {
      const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.RunStatus;
      return field ? [converter.fromPayload(field)] : [];
    });
    expect(statusWrites).toEqual(['completed']);
    // Shape 4: the outlines and sections only later steps read stay with the worker; the history names them.
    const calls = scheduled.map((e) => converter.fromPayload<any>(e.activityTaskScheduledEventAttributes!.input!.payloads![0]!));
    expect(calls.map((c) => [c.returnOutput, c.outputRefs, Object.keys(c.context.steps)])).toEqual([
      [false, undefined, []],
      [false, ['step-1'], []],
    ]);
    const results = (history.events ?? []).filter((e) => e.activityTaskCompletedEventAttributes);
    for (const e of results) {
      expect(converter.fromPayload<any>(e.activityTaskCompletedEventAttributes!.result!.payloads![0]!)).not.toHaveProperty('output');
    }
    // Shape 5: each step is sent its id and the artifact's id; its name, kind and the artifact's schema are
    // the definition's, and the standard execution mode goes unsaid.
    for (const call of calls) {
      expect(call.definitionHash).toBe(started.definitionHash);
      expect(call.step).toEqual({ id: expect.any(String) });
      expect(call.artifactId).toMatch(/^artifact-/);
      expect(call).not.toHaveProperty('artifact');
      expect(call).not.toHaveProperty('executionMode');
    }
    expect(new Set(calls.map((c) => c.artifactId)).size).toBe(1);
  });

  it('records a delivered and a refused webhook delivery', async () => {
    // A loopback integrator: /ok takes the event, /gone refuses it for good (410, final: the message is settled failed).
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(req.url === '/ok' ? 200 : 410).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const endpoint = async (p: string) => {
        const body = { workspaceId: user.workspaceId, url: `${base}${p}`, events: ['run.completed'] };
        return (await h.request('POST', '/v1/webhook-endpoints', { token: user.token, body })).body.id as string;
      };
      const [ok, gone] = [await endpoint('/ok'), await endpoint('/gone')];
      const runId = (
        await h.request('POST', '/v1/runs', { token: user.token, body: { templateId: 'plan-research-report', intake: { topic: 'hooks' } } })
      ).body.id as string;
      expect((await waitForRun(h, user.token, runId)).status).toBe('completed');
      const key = runEventKey({ id: runId, status: 'completed' });
      // The outbox starts the delivery soon after the run settles, not with it.
      const closed = async (id: string) => {
        for (
          let tries = 0;
          !(await h.temporal.workflow
            .getHandle(id)
            .describe()
            .then(
              () => true,
              () => false,
            ));
          tries++
        ) {
          if (tries > 100) throw new Error(`delivery ${id} never started`);
          await new Promise((r) => setTimeout(r, 200));
        }
        return executionClosed(h, id);
      };
      const delivered = await closed(eventMessageId(key, ok));
      const refused = await closed(eventMessageId(key, gone));
      expect([delivered.outcome.status, refused.outcome.status]).toEqual(['delivered', 'failed']);
      await record('webhook-delivery-delivered', eventMessageId(key, ok), WEBHOOK_SHAPE);
      await record('webhook-delivery-refused', eventMessageId(key, gone), WEBHOOK_SHAPE);
      // Started on the webhook queue: no marker, every activity on that queue.
      const queues = async (id: string) => {
        const history = await h.temporal.workflow.getHandle(id).fetchHistory();
        const scheduled = (history.events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes?.taskQueue?.name ?? []);
        return {
          started: history.events![0]!.workflowExecutionStartedEventAttributes!.taskQueue!.name,
          scheduled,
          markers: patchEvents(history).length,
        };
      };
      const own = webhookTaskQueue(h.taskQueue);
      expect(await queues(eventMessageId(key, ok))).toEqual({ started: own, scheduled: [own], markers: 0 });
      expect(await queues(eventMessageId(key, gone))).toEqual({ started: own, scheduled: [own, own], markers: 0 });

      for (const id of [ok, gone]) await h.request('DELETE', `/v1/webhook-endpoints/${id}`, { token: user.token });
    } finally {
      server.close();
    }
  });

  it('replays every committed history against the current workflow code', async () => {
    const files = (await readdir(HISTORIES)).filter((f) => f.endsWith('.json')).sort();
    expect(files.length).toBeGreaterThanOrEqual(12);
    const histories = await Promise.all(
      files.map(async (f) => ({ workflowId: f, history: historyFromJSON(JSON.parse(await readFile(path.join(HISTORIES, f), 'utf8'))) })),
    );
    const code = await readFile(inject('workflowBundlePath'), 'utf8');
    for await (const result of Worker.runReplayHistories({ workflowBundle: { code } }, histories)) {
      expect(result.error, `${result.workflowId} no longer replays: ${result.error}`).toBeUndefined();
    }
  });
});
