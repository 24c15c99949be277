import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * A storage key is not access. Bob knows the keys of Alice's files (they are printed in every URL she was
 * handed) and tries every way of turning one into her bytes: a code step that names her key as his
 * artifact's file, content that names it (as a step could write before steps were refused for it) read
 * through the API, fed to the film cut as a clip, and fed to background removal as an image.
 */
let h: Harness;
let alice: TestUser;
let bob: TestUser;
let aliceImage: any;
let aliceClip: any;

async function finished(user: TestUser, templateId: string, intake: Record<string, unknown>) {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id, undefined, 90_000);
}
const artifact = async (user: TestUser, id: string) => (await h.request('GET', `/v1/artifacts/${id}`, { token: user.token })).body;

/** An artifact of Bob's whose content names `storageKey`, written as a finished run would leave it. */
async function bobsArtifactNaming(artifactClass: 'visual' | 'video', storageKey: string): Promise<string> {
  const id = `artifact-${randomBytes(8).toString('hex')}`;
  await h.db
    .insertInto('artifacts')
    .values({
      id,
      workspace_id: bob.workspaceId,
      title: 'borrowed',
      status: 'ready',
      artifact_class: artifactClass,
      artifact_type: artifactClass === 'visual' ? 'illustration' : 'clip',
      content: JSON.stringify(
        artifactClass === 'visual'
          ? {
              type: 'image',
              storageKey,
              rawStorageKey: storageKey.replace('processed', 'raw'),
              mimeType: 'image/webp',
              width: 64,
              height: 64,
            }
          : { type: 'video', storageKey, mimeType: 'video/mp4', durationSeconds: 1, width: 64, height: 64, fps: 25 },
      ),
      qa: JSON.stringify({ status: 'passed', checks: [] }),
    } as never)
    .execute();
  return id;
}

const STEAL = 'build-borrowed-file';
const stealer = {
  id: STEAL,
  name: 'Names a file',
  description: 'A code step whose output names a storage key it was given',
  artifactClass: 'visual',
  version: '2026.11.01',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'key', type: 'string', required: true, description: 'A storage key' }] },
  runtimeSteps: [
    { id: 'step-1', name: 'Name it', kind: 'code', expression: '{"title": "x", "storageKey": intake.key}', emitsArtifact: true },
    { id: 'step-2', name: 'Keep it', kind: 'code', function: 'identity', inputPath: 'step-1' },
  ],
  gates: [],
  providers: {},
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'visual', artifactType: 'illustration', files: ['image/webp'], metadata: [] },
  outputShape: [{ artifactClass: 'visual', artifactType: 'illustration' }],
};

beforeAll(async () => {
  h = await startHarness();
  [alice, bob] = await Promise.all([registerUser(h, 'Alice'), registerUser(h, 'Bob')]);
  const [image, clip] = await Promise.all([
    finished(alice, 'generate-illustration', { subject: 'a private sketch' }),
    finished(alice, 'generate-video-clip', { prompt: 'a private home video', durationSeconds: 1 }),
  ]);
  expect([image.status, clip.status]).toEqual(['completed', 'completed']);
  aliceImage = await artifact(alice, image.artifactId);
  aliceClip = await artifact(alice, clip.artifactId);
  // Alice's own files are hers to download.
  expect((await fetch(aliceImage.content.url)).status).toBe(200);
  const authored = await h.request('POST', '/v1/workflows', { token: bob.token, body: { definition: stealer } });
  expect(authored.status, JSON.stringify(authored.body)).toBe(201);
  const published = await h.request('POST', `/v1/workflows/${STEAL}/publish`, {
    token: bob.token,
    body: { version: '2026.11.01', visibility: 'internal' },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}, 180_000);
afterAll(() => h?.stop());

describe('a storage key is not access', () => {
  it('fails a step whose output names a file that is not its artifact’s, and ships no artifact for it', async () => {
    for (const key of [aliceImage.content.storageKey, aliceClip.content.storageKey]) {
      const run = await finished(bob, STEAL, { key });
      expect(run.status).toBe('failed');
      expect(run.errorCode).toBe('step_invalid');
      expect(run.error).toContain('names a stored file that is not this artifact');
      expect(run.error).toContain(key);
      expect(run.artifactId ?? null).toBeNull();
    }
  });

  it('refuses a key under another artifact’s prefix even of the same type', async () => {
    const run = await finished(bob, STEAL, { key: `artifacts/illustration/artifact-${randomBytes(8).toString('hex')}/processed.webp` });
    expect(run.status).toBe('failed');
  });

  it('signs no URL for content that names another artifact’s file, and drops a url the content carries', async () => {
    const id = await bobsArtifactNaming('visual', aliceImage.content.storageKey);
    await h.db
      .updateTable('artifacts')
      .set({ content: JSON.stringify({ type: 'image', storageKey: aliceImage.content.storageKey, url: aliceImage.content.url }) })
      .where('id', '=', id)
      .execute();
    const res = await h.request('GET', `/v1/artifacts/${id}`, { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.body.content.storageKey).toBe(aliceImage.content.storageKey);
    expect(res.body.content.url).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain('/v1/files/');
    // Alice still gets hers.
    expect((await artifact(alice, aliceImage.id)).content.url).toMatch(/\/v1\/files\/artifacts\/illustration\//);
  });

  it('refuses a film-cut clip whose artifact names another artifact’s file, so Alice’s clip never reaches Bob’s film', async () => {
    const borrowed = await bobsArtifactNaming('video', aliceClip.content.storageKey);
    const cut = await finished(bob, 'build-film-cut', { clips: [{ artifactId: borrowed, start: 0, seconds: 1 }] });
    expect(cut.status).toBe('failed');
    expect(cut.errorCode).toBe('step_invalid');
    expect(cut.error).toContain(`artifact ${borrowed} records no file of its own`);
    expect(cut.artifactId ?? null).toBeNull();
    // And Alice's clip, named by its id, is not Bob's to cut: it is outside his workspace.
    const direct = await finished(bob, 'build-film-cut', { clips: [{ artifactId: aliceClip.id, start: 0, seconds: 1 }] });
    expect(direct.status).toBe('failed');
    expect(direct.error).toContain('not found in this workspace');
  });

  it('refuses background removal of an image whose artifact names another artifact’s file', async () => {
    const borrowed = await bobsArtifactNaming('visual', aliceImage.content.storageKey);
    const cutout = await finished(bob, 'remove-background', { image: borrowed });
    expect(cutout.status).toBe('failed');
    expect(cutout.errorCode).toBe('step_invalid');
    expect(cutout.error).toContain(`may not read "${aliceImage.content.storageKey}"`);
    expect(cutout.artifactId ?? null).toBeNull();
  });

  it('still removes the background of Bob’s own image, read through its artifact', async () => {
    const own = await finished(bob, 'generate-illustration', { subject: 'a kite' });
    const cutout = await finished(bob, 'remove-background', { image: own.artifactId });
    expect(cutout.status, JSON.stringify(cutout.error)).toBe('completed');
    const made = await artifact(bob, cutout.artifactId);
    expect(made.content).toMatchObject({
      sourceArtifactId: own.artifactId,
      storageKey: `artifacts/cutout/${cutout.artifactId}/processed.webp`,
    });
    expect(made.content.sourceStorageKey).toBeUndefined();
    expect((await fetch(made.content.url)).status).toBe(200);
  });

  it('gives nothing for a key alone, a URL past its expiry or a signature moved to another key', async () => {
    const signed = new URL(aliceImage.content.url);
    const bare = `${h.url}${signed.pathname}`;
    expect((await fetch(bare)).status).toBeGreaterThanOrEqual(400);
    const expired = new URL(signed);
    expired.searchParams.set('exp', String(Math.floor(Date.now() / 1000) - 60));
    expect((await fetch(expired)).status).toBeGreaterThanOrEqual(400);
    const moved = new URL(aliceClip.content.url);
    moved.searchParams.set('sig', signed.searchParams.get('sig')!);
    moved.searchParams.set('exp', signed.searchParams.get('exp')!);
    expect((await fetch(moved)).status).toBeGreaterThanOrEqual(400);
  });
});
