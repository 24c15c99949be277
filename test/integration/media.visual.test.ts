import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import { createApp } from '@atelier/api/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * The visual pipeline end to end on the local provider, judged on the bytes written: WebP files read
 * back with sharp, alpha measured on the decoded pixels, and downloads through the gateway.
 */
let h: Harness;
let user: TestUser;

/** A test-only illustration workflow whose content promises transparency that the pixels do not have. */
const QA_HOLD_WORKFLOW = {
  id: 'generate-illustration-false-promise',
  name: 'Illustration with a false promise',
  version: '2026.11.01',
  artifactClass: 'visual',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'subject', type: 'string', required: true }] },
  runtimeSteps: [
    {
      id: 'step-1',
      name: 'Draw',
      kind: 'image',
      role: 'imageGenerator',
      params: { prompt: '{{intake.subject}}', width: 256, height: 256 },
    },
    { id: 'step-2', name: 'Process without cutting', kind: 'tool', tool: 'removeBackground', inputPath: 'step-1' },
    {
      id: 'step-3',
      name: 'Claim transparency',
      kind: 'code',
      function: 'processedVisual',
      inputPath: 'step-2',
      params: { transparentBackground: true },
    },
  ],
  gates: [],
  providers: { imageGenerator: 'local/image-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'visual', artifactType: 'illustration', files: ['image/webp'], metadata: [] },
  outputShape: [{ artifactClass: 'visual', artifactType: 'illustration' }],
};

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
  await syncBuiltinWorkflows(h.db, [QA_HOLD_WORKFLOW] as never);
});
afterAll(() => h?.stop());

async function finished(templateId: string, intake: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id, undefined, 90_000);
}
const artifactOf = async (run: any) => (await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token })).body;

function expectWebp(bytes: Buffer) {
  expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
  expect(bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');
  expect(bytes.readUInt32LE(4) + 8).toBe(bytes.length);
}

/** Decoded RGBA pixels with helpers to read alpha at a point and the share of transparent pixels. */
async function pixels(bytes: Buffer) {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const alphaAt = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]!;
  let transparent = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] === 0) transparent++;
  const corners = [alphaAt(0, 0), alphaAt(info.width - 1, 0), alphaAt(0, info.height - 1), alphaAt(info.width - 1, info.height - 1)];
  return {
    data,
    info,
    alphaAt,
    corners,
    transparentFraction: transparent / (info.width * info.height),
    centre: alphaAt(info.width >> 1, info.height >> 1),
  };
}

const passing = (qa: any) => qa.checks.every((c: any) => c.status === 'pass');

describe('generate-illustration', () => {
  let opaqueRun: any;

  it('without transparency: raw and processed WebP, mechanism none, QA passing', async () => {
    opaqueRun = await finished('generate-illustration', { subject: 'a lighthouse on a cliff' });
    expect(opaqueRun.status, JSON.stringify(opaqueRun.error)).toBe('completed');
    expect(opaqueRun.intake).toEqual({ subject: 'a lighthouse on a cliff', style: 'flat', transparentBackground: false });
    expect(opaqueRun.runSteps.map((s: any) => [s.kind, s.status])).toEqual([
      ['llm', 'completed'],
      ['image', 'completed'],
      ['tool', 'completed'],
      ['code', 'completed'],
    ]);
    const artifact = await artifactOf(opaqueRun);
    expect(artifact).toMatchObject({ status: 'ready', artifactClass: 'visual', artifactType: 'illustration' });
    const c = artifact.content;
    const base = `artifacts/illustration/${opaqueRun.artifactId}`;
    expect(c).toMatchObject({
      type: 'image',
      storageKey: `${base}/processed.webp`,
      rawStorageKey: `${base}/raw.webp`,
      mimeType: 'image/webp',
      width: 1024,
      height: 1024,
      model: 'local/image-1',
      transparentBackground: false,
    });
    expect(c.prompt).toMatch(/lighthouse on a cliff/i);
    expect(c.prompt).toMatch(/flat style/);
    expect(c.transparency).toMatchObject({ mechanism: 'none', transparentFraction: 0 });

    for (const k of [c.rawStorageKey, c.storageKey]) {
      const bytes = await h.storage.get(k);
      expectWebp(bytes);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1024, 1024]);
      expect((await pixels(bytes)).transparentFraction).toBe(0);
    }
    expect(c.bytes).toBe((await h.storage.get(c.storageKey)).length);
    // Both files are reachable through signed URLs: url is the processed one, rawUrl the image before processing.
    for (const [url, key] of [
      [c.url, c.storageKey],
      [c.rawUrl, c.rawStorageKey],
    ]) {
      expect(new URL(url).pathname).toBe(`/v1/files/${key}`);
      const file = await fetch(url);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(await h.storage.get(key))).toBe(true);
    }
    expect(artifact.qa.status).toBe('passed');
    expect(artifact.qa.checks.map((q: any) => q.id)).toEqual(['format', 'dimensions', 'aspect', 'transparency', 'file-size']);
    expect(passing(artifact.qa)).toBe(true);
  });

  it('with transparency on a model without it: a real cut-out (post-process), transparent corners, opaque centre', async () => {
    const run = await finished('generate-illustration', { subject: 'a red fox sitting', style: 'watercolor', transparentBackground: true });
    expect(run.status).toBe('completed');
    const artifact = await artifactOf(run);
    const c = artifact.content;
    expect(c).toMatchObject({ transparentBackground: true, model: 'local/image-1', transparency: { mechanism: 'post-process' } });
    expect(c.prompt).toMatch(/watercolor style/);

    const raw = await pixels(await h.storage.get(c.rawStorageKey));
    expect(raw.transparentFraction).toBe(0); // the model drew a backdrop
    const processedBytes = await h.storage.get(c.storageKey);
    expectWebp(processedBytes);
    expect((await sharp(processedBytes).metadata()).hasAlpha).toBe(true);
    const processed = await pixels(processedBytes);
    expect(processed.corners).toEqual([0, 0, 0, 0]);
    expect(processed.centre).toBe(255);
    expect(processed.transparentFraction).toBeGreaterThan(0.3);
    expect(processed.transparentFraction).toBeLessThan(0.95);
    // The recorded measurement is the file's.
    expect(Math.abs(c.transparency.transparentFraction - processed.transparentFraction)).toBeLessThan(0.001);
    expect(c.transparency.opaqueFraction).toBeGreaterThan(0.05);
    // Where the subject is, the pixels are the raw ones.
    const o = ((processed.info.height >> 1) * processed.info.width + (processed.info.width >> 1)) * 4;
    for (let ch = 0; ch < 3; ch++) expect(Math.abs(processed.data[o + ch]! - raw.data[o + ch]!)).toBeLessThan(12);

    expect(artifact.qa.status).toBe('passed');
    expect(artifact.qa.checks.find((q: any) => q.id === 'transparency')).toMatchObject({
      status: 'pass',
      detail: expect.stringMatching(/fully transparent \(post-process\)/),
    });
    expect(artifact.qa.checks.find((q: any) => q.id === 'subject-kept')).toMatchObject({ status: 'pass' });
  });

  it('with a model that draws transparency (local/image-alpha-1 by run override): mechanism native', async () => {
    const run = await finished(
      'generate-illustration',
      { subject: 'a paper boat', transparentBackground: true },
      { providers: { imageGenerator: 'local/image-alpha-1' } },
    );
    expect(run.status).toBe('completed');
    expect(run.runSteps[1]).toMatchObject({ model: 'local/image-alpha-1', costActualUsd: 0.03 });
    const c = (await artifactOf(run)).content;
    expect(c).toMatchObject({ model: 'local/image-alpha-1', transparency: { mechanism: 'native' } });
    const raw = await pixels(await h.storage.get(c.rawStorageKey));
    expect(raw.corners).toEqual([0, 0, 0, 0]); // transparent as drawn
    const processed = await pixels(await h.storage.get(c.storageKey));
    expect(processed.corners).toEqual([0, 0, 0, 0]);
    expect(processed.centre).toBe(255);
    expect(Math.abs(processed.transparentFraction - raw.transparentFraction)).toBeLessThan(0.01);
  });

  it('draws visibly different images for different subjects', async () => {
    const other = await finished('generate-illustration', { subject: 'a bowl of ramen with chopsticks' });
    const [a, b] = await Promise.all(
      [opaqueRun, other]
        .map(async (r) => (await artifactOf(r)).content.storageKey)
        .map(async (k) =>
          sharp(await h.storage.get(await k))
            .resize(64, 64)
            .removeAlpha()
            .raw()
            .toBuffer(),
        ),
    );
    let diff = 0;
    for (let i = 0; i < a!.length; i++) diff += Math.abs(a![i]! - b![i]!);
    // Pixel by pixel, not by average colour: each run seeds its shapes and palette with its own id, so two
    // different pictures can happen to share an average (a channel-mean check failed once for that reason).
    expect(diff / a!.length).toBeGreaterThan(12);
  });

  it('gives content.url that downloads the processed bytes through the gateway, ranges included', async () => {
    const artifact = await artifactOf(opaqueRun);
    const processed = await h.storage.get(artifact.content.storageKey);
    expect(artifact.content.url).toMatch(new RegExp(`^${h.url}/v1/files/${artifact.content.storageKey}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    const res = await fetch(artifact.content.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await res.arrayBuffer()).equals(processed)).toBe(true);
    const head = await fetch(artifact.content.url, { headers: { range: 'bytes=0-11' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-11/${processed.length}`);
    expectWebp(Buffer.concat([Buffer.from(await head.arrayBuffer()), processed.subarray(12)]));
    const tail = await fetch(artifact.content.url, { headers: { range: 'bytes=-100' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(processed.subarray(-100))).toBe(true);
    // The stored content holds no url: it is made on each read.
    const stored = await h.db.selectFrom('artifacts').select('content').where('id', '=', opaqueRun.artifactId).executeTakeFirstOrThrow();
    expect((stored.content as any).url).toBeUndefined();
  });

  it('makes content.url on the configured public URL (ATELIER_PUBLIC_URL), never on the Host a request names', async () => {
    const gateway = createApp(h.gatewayServices({ publicUrl: 'https://media.atelier.example/' }));
    const res = await gateway.request(`http://evil.example/v1/artifacts/${opaqueRun.artifactId}`, {
      headers: { authorization: `Bearer ${user.token}`, host: 'evil.example' },
    });
    const artifact = (await res.json()) as any;
    expect(artifact.content.url.startsWith(`https://media.atelier.example/v1/files/${artifact.content.storageKey}?exp=`)).toBe(true);
    // The running gateway, asked with another Host header over HTTP, answers on its own address.
    const overHttp = await new Promise<any>((resolve, reject) => {
      const req = httpRequest(
        `${h.url}/v1/artifacts/${opaqueRun.artifactId}`,
        { headers: { authorization: `Bearer ${user.token}`, host: 'evil.example' } },
        (answer) => {
          let text = '';
          answer.on('data', (chunk) => (text += chunk));
          answer.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(overHttp.content.url.startsWith(`${h.url}/v1/files/`)).toBe(true);
    expect(JSON.stringify(overHttp)).not.toContain('evil.example');
  });

  it('rejects an unsafe subject at the safety gate before drawing anything', async () => {
    const run = await finished('generate-illustration', { subject: 'a grenade on a table' });
    expect(run).toMatchObject({ status: 'failed', errorCode: 'gate_rejected' });
    expect(run.runSteps.map((s: any) => s.status)).toEqual(['failed', 'pending', 'pending', 'pending']);
  });
});

describe('remove-background', () => {
  it('cuts out a product shot into a cutout artifact with its own raw and processed files', async () => {
    const shot = await finished('generate-product-shot', { product: 'a ceramic teapot' });
    expect(shot.status).toBe('review');
    const source = (await artifactOf(shot)).content;

    const run = await finished('remove-background', { image: shot.artifactId });
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    expect(run.runSteps.map((s: any) => [s.kind, s.status])).toEqual([
      ['tool', 'completed'],
      ['code', 'completed'],
    ]);
    expect(run.totalCosts.actualUsd).toBe(0);
    const artifact = await artifactOf(run);
    expect(artifact).toMatchObject({ status: 'ready', artifactClass: 'visual', artifactType: 'cutout' });
    const c = artifact.content;
    const base = `artifacts/cutout/${run.artifactId}`;
    expect(c).toMatchObject({
      type: 'image',
      storageKey: `${base}/processed.webp`,
      rawStorageKey: `${base}/raw.webp`,
      sourceArtifactId: shot.artifactId,
      transparentBackground: true,
      model: 'local/image-1',
      width: 1024,
      height: 1024,
      transparency: { mechanism: 'post-process' },
    });
    expect((await h.storage.get(c.rawStorageKey)).equals(await h.storage.get(source.storageKey))).toBe(true);
    const processed = await pixels(await h.storage.get(c.storageKey));
    expect(processed.corners).toEqual([0, 0, 0, 0]);
    expect(processed.centre).toBe(255);
    expect(processed.transparentFraction).toBeGreaterThan(0.3);
    expect(artifact.qa.status).toBe('passed');
    expect(artifact.qa.checks.map((q: any) => q.id)).toEqual([
      'format',
      'dimensions',
      'aspect',
      'transparency',
      'subject-kept',
      'file-size',
    ]);
    // The source is untouched.
    expect((await pixels(await h.storage.get(source.storageKey))).transparentFraction).toBe(0);
  });

  it('refuses a research artifact as the image, naming the field', async () => {
    const report = await finished('plan-research-report', { topic: 'tide pools', depth: 'brief' });
    expect(report.status).toBe('completed');
    const res = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'remove-background', intake: { image: report.artifactId } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.error).toBe('intake_invalid');
    expect(res.body.detail.fields).toEqual(['image must be a visual artifact (got research/research-report)']);
    const missing = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId: 'remove-background', intake: {} } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.fields).toEqual(['image is required']);
  });
});

describe('visual QA', () => {
  it('holds for review a run whose content promises transparency the pixels do not have', async () => {
    const run = await finished('generate-illustration-false-promise', { subject: 'a teacup' });
    expect(run.status).toBe('review');
    expect(run.reviewGate).toEqual({ id: 'qa', name: 'QA hold', holdFields: [] });
    const artifact = await artifactOf(run);
    expect(artifact.status).toBe('review');
    expect(artifact.content).toMatchObject({ transparentBackground: true, transparency: { mechanism: 'none', transparentFraction: 0 } });
    expect((await pixels(await h.storage.get(artifact.content.storageKey))).transparentFraction).toBe(0);
    expect(artifact.qa.status).toBe('failed');
    expect(artifact.qa.checks.filter((q: any) => q.status === 'fail')).toEqual([
      {
        id: 'transparency',
        label: 'Background is transparent as promised',
        status: 'fail',
        detail: '0.0% of pixels are fully transparent (none); at least 1.0% needed',
      },
    ]);
  });
});
