import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@atelier/api/app';
import { presentArtifact } from '@atelier/api/presenters/artifact';
import { LOCAL_MODELS, ModelRegistry } from '@atelier/domain';
import { GcsStorage } from '@atelier/storage';
import { type Harness, startHarness } from '../support/harness';

/** The file gateway over real HTTP: whole files, byte ranges, validators, HEAD, and what it refuses. */
let h: Harness;
const key = `artifacts/illustration/artifact-${randomBytes(8).toString('hex')}/processed.webp`;
const bytes = randomBytes(10_000);
const url = () => `${h.url}/v1/files/${key}`;
const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

beforeAll(async () => {
  h = await startHarness({ worker: false });
  await h.storage.put(key, bytes);
  await h.storage.put('private/secret.txt', Buffer.from('not an artifact'));
});
afterAll(() => h?.stop());

describe('GET /v1/files/{key} on local storage', () => {
  it('serves the whole file without a credential, with type, length, validators and immutable caching', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('content-length')).toBe('10000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(res.headers.get('last-modified') ?? '')).toBeGreaterThan(Date.now() - 600_000);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await body(res)).equals(bytes)).toBe(true);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, 9_999],
    ['bytes=-500', 9_500, 9_999],
    ['bytes=-20000', 0, 9_999],
    ['bytes=9990-99999999', 9_990, 9_999],
    ['bytes=42-42', 42, 42],
  ])('answers Range %s with 206 and exactly those bytes', async (range, start, end) => {
    const res = await fetch(url(), { headers: { range } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/10000`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect((await body(res)).equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=10000-', 'bytes=20000-30000', 'bytes=-0'])('answers the unsatisfiable Range %s with 416 and bytes */size', async (range) => {
    const res = await fetch(url(), { headers: { range } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */10000');
  });

  it.each(['bytes=0-1,5-6', 'bytes=abc', 'items=0-5', 'bytes=9-3'])('ignores the Range %s it does not serve and sends the whole file', async (range) => {
    const res = await fetch(url(), { headers: { range } });
    expect(res.status).toBe(200);
    expect((await body(res)).length).toBe(10_000);
  });

  it('answers 304 to a matching If-None-Match or a later If-Modified-Since, and 200 otherwise', async () => {
    const first = await fetch(url());
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await fetch(url(), { headers: { 'if-none-match': ifNoneMatch } });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect((await body(res)).length).toBe(0);
    }
    const changed = await fetch(url(), { headers: { 'if-none-match': '"something-else"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
    const later = await fetch(url(), { headers: { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() } });
    expect(later.status).toBe(304);
    const earlier = await fetch(url(), { headers: { 'if-modified-since': new Date(Date.now() - 3_600_000).toUTCString() } });
    expect(earlier.status).toBe(200);
    await earlier.arrayBuffer();
  });

  it('applies a Range under If-Range only while the ETag still matches', async () => {
    const etag = (await fetch(url(), { method: 'HEAD' })).headers.get('etag')!;
    const same = await fetch(url(), { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(same.status).toBe(206);
    expect((await body(same)).equals(bytes.subarray(0, 10))).toBe(true);
    const stale = await fetch(url(), { headers: { range: 'bytes=0-9', 'if-range': '"stale"' } });
    expect(stale.status).toBe(200);
    expect((await body(stale)).length).toBe(10_000);
  });

  it('answers HEAD with the same headers and no body, ranges included', async () => {
    const head = await fetch(url(), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10000');
    expect(head.headers.get('content-type')).toBe('image/webp');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect((await body(head)).length).toBe(0);
    const ranged = await fetch(url(), { method: 'HEAD', headers: { range: 'bytes=-10' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 9990-9999/10000');
  });

  it('serves only keys under artifacts/, and never climbs out of storage', async () => {
    expect((await h.storage.get('private/secret.txt')).toString()).toBe('not an artifact');
    for (const path of [
      'private/secret.txt',
      'artifacts/%2e%2e/private/secret.txt',
      'artifacts/..%2fprivate%2fsecret.txt',
      'artifacts/illustration/artifact-0000000000000000/processed.webp',
      'artifacts',
      '%00',
    ]) {
      const res = await fetch(`${h.url}/v1/files/${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('not an artifact');
    }
  });

  it('answers other methods with 405 and Allow', async () => {
    const res = await fetch(url(), { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await h.storage.stat(key))?.size).toBe(10_000);
  });

  it('is documented in the OpenAPI document as a public route', async () => {
    const spec = (await (await fetch(`${h.url}/openapi.json`)).json()) as any;
    const op = spec.paths['/v1/files/{key}']?.get;
    expect(op).toBeDefined();
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '206', '302', '304', '404', '416']));
  });
});

describe('GET /v1/files/{key} on GCS storage', () => {
  const gcs = (extra: Partial<ConstructorParameters<typeof GcsStorage>[0]> = {}) =>
    new GcsStorage({ bucket: 'atelier-media', prefix: 'prod', public: true, apiEndpoint: 'https://storage.googleapis.com', ...extra });
  const app = (storage: GcsStorage) =>
    createApp({ db: h.db, temporal: h.temporal, taskQueue: h.taskQueue, logger: pino({ level: 'silent' }), models: new ModelRegistry(LOCAL_MODELS), storage, events: h.events });

  it('redirects to the public object address, uncached', async () => {
    const res = await app(gcs()).request(`/v1/files/${key}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`https://storage.googleapis.com/atelier-media/prod/${key}`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect((await app(gcs()).request('/v1/files/private/secret.txt')).status).toBe(404);
  });

  it('fills content.url of an artifact with the driver address, and the gateway address for local storage', async () => {
    const row = {
      id: 'artifact-0123456789abcdef',
      run_id: 'run-01234567',
      template_id: 'generate-illustration',
      workspace_id: 'w',
      project_id: null,
      title: 'Illustration',
      status: 'ready',
      artifact_class: 'visual',
      artifact_type: 'illustration',
      version: 1,
      content: { type: 'image', storageKey: key },
      qa: { status: 'passed', checks: [] },
      created_at: new Date(),
      source_report_artifact_id: null,
    } as never;
    expect((await presentArtifact(row, { storage: gcs(), origin: h.url })).content.url).toBe(`https://storage.googleapis.com/atelier-media/prod/${key}`);
    expect((await presentArtifact(row, { storage: h.storage, origin: 'https://atelier.example' })).content.url).toBe(`https://atelier.example/v1/files/${key}`);
    expect((await presentArtifact(row)).content.url).toBeUndefined();
  });
});
