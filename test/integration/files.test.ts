import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@atelier/api/app';
import { presentArtifact } from '@atelier/api/presenters/artifact';
import { startApiServer } from '@atelier/api/server';
import { GcsStorage } from '@atelier/storage';
import { fileSignature, fileUrlSigning, generateFileSigningSecret, signedFileUrl } from '@atelier/storage/file-urls';
import { type Harness, createApiKey, registerUser, startHarness } from '../support/harness';

/** The file gateway over real HTTP: signed URLs, whole files, byte ranges, validators, HEAD, and what it refuses. */
let h: Harness;
const key = `artifacts/illustration/artifact-${randomBytes(8).toString('hex')}/processed.webp`;
const otherKey = `artifacts/illustration/artifact-${randomBytes(8).toString('hex')}/processed.webp`;
const bytes = randomBytes(10_000);
/** The signed URL of `key`, as an artifact's content.url gives it. */
const url = () => signedFileUrl(h.url, key, h.fileUrls);
const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

beforeAll(async () => {
  h = await startHarness({ worker: false });
  await h.storage.put(key, bytes);
  await h.storage.put(otherKey, Buffer.from('another artifact'));
  await h.storage.put('private/secret.txt', Buffer.from('not an artifact'));
});
afterAll(() => h?.stop());

describe('GET /v1/files/{key} on local storage', () => {
  it('serves the whole file by its signed URL without a credential, with type, length, validators and private immutable caching until exp', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('content-length')).toBe('10000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(res.headers.get('last-modified') ?? '')).toBeGreaterThan(Date.now() - 600_000);
    const exp = Number(new URL(url()).searchParams.get('exp'));
    const maxAge = Number(/^private, max-age=(\d+), immutable$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(exp - Date.now() / 1000 - 5);
    expect(maxAge).toBeLessThanOrEqual(exp - Date.now() / 1000 + 1);
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

  it.each(['bytes=10000-', 'bytes=20000-30000', 'bytes=-0'])(
    'answers the unsatisfiable Range %s with 416 and bytes */size',
    async (range) => {
      const res = await fetch(url(), { headers: { range } });
      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */10000');
    },
  );

  it.each(['bytes=0-1,5-6', 'bytes=abc', 'items=0-5', 'bytes=9-3'])(
    'ignores the Range %s it does not serve and sends the whole file',
    async (range) => {
      const res = await fetch(url(), { headers: { range } });
      expect(res.status).toBe(200);
      expect((await body(res)).length).toBe(10_000);
    },
  );

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
      for (const u of [`${h.url}/v1/files/${path}`, signedFileUrl(h.url, path, h.fileUrls)]) {
        const res = await fetch(u);
        expect(res.status, u).toBe(404);
        expect(await res.text()).not.toContain('not an artifact');
      }
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
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '206', '302', '304', '403', '404', '416']));
    expect(op.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.required])).toEqual([
      ['exp', true],
      ['sig', true],
    ]);
  });
});

describe('signed file URLs: a storage key alone is no access', () => {
  const signed = () => new URL(url());
  const withQuery = (k: string, exp: string | null, sig: string | null) => {
    const u = new URL(`${h.url}/v1/files/${k}`);
    if (exp !== null) u.searchParams.set('exp', exp);
    if (sig !== null) u.searchParams.set('sig', sig);
    return u.toString();
  };
  const refused = async (u: string, status = 404) => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(u, { method, headers: { range: 'bytes=0-9' } });
      expect(res.status, `${method} ${u}`).toBe(status);
      const text = await res.text();
      expect(res.headers.get('content-range')).toBeNull();
      expect(text).not.toContain(bytes.subarray(0, 10).toString('latin1'));
    }
  };

  it("gives the artifact's owner a content.url that downloads the bytes, ranges included, and stores no url", async () => {
    const owner = await registerUser(h);
    const artifactId = `artifact-${randomBytes(8).toString('hex')}`;
    const artifactKey = `artifacts/illustration/${artifactId}/processed.webp`;
    await h.storage.put(artifactKey, bytes);
    await h.db
      .insertInto('artifacts')
      .values({
        id: artifactId,
        run_id: null,
        template_id: 'generate-illustration',
        workspace_id: owner.workspaceId,
        project_id: null,
        title: 'Signed',
        status: 'ready',
        artifact_class: 'visual',
        artifact_type: 'illustration',
        version: 1,
        content: JSON.stringify({ type: 'image', storageKey: artifactKey }),
        qa: JSON.stringify({ status: 'passed', checks: [] }),
      } as never)
      .execute();
    for (const token of [owner.token, await createApiKey(h, owner)]) {
      const read = await h.request('GET', `/v1/artifacts/${artifactId}`, { token });
      expect(read.status).toBe(200);
      const contentUrl = new URL(read.body.content.url);
      expect(contentUrl.origin + contentUrl.pathname).toBe(`${h.url}/v1/files/${artifactKey}`);
      expect([...contentUrl.searchParams.keys()]).toEqual(['exp', 'sig']);
      const whole = await fetch(contentUrl);
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
      const ranged = await fetch(contentUrl, { headers: { range: 'bytes=100-199' } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe('bytes 100-199/10000');
      expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    }
    // A stranger cannot read the artifact, so gets no URL; the bare key gets nothing either.
    const stranger = await registerUser(h);
    expect((await h.request('GET', `/v1/artifacts/${artifactId}`, { token: stranger.token })).status).toBe(404);
    await refused(`${h.url}/v1/files/${artifactKey}`);
    const stored = await h.db.selectFrom('artifacts').select('content').where('id', '=', artifactId).executeTakeFirstOrThrow();
    expect((stored.content as any).url).toBeUndefined();
  });

  it('answers 404 to the bare key, a missing half, a tampered signature or expiry, and a signature of another key', async () => {
    const exp = signed().searchParams.get('exp')!;
    const sig = signed().searchParams.get('sig')!;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const otherSig = new URL(signedFileUrl(h.url, otherKey, h.fileUrls)).searchParams.get('sig')!;
    for (const u of [
      withQuery(key, null, null),
      withQuery(key, exp, null),
      withQuery(key, null, sig),
      withQuery(key, exp, flip(sig, 0)),
      withQuery(key, exp, flip(sig, 42)),
      withQuery(key, exp, sig.toLowerCase()),
      withQuery(key, exp, `${sig}=`),
      withQuery(key, String(Number(exp) + 1), sig),
      withQuery(key, `${exp}.0`, sig),
      withQuery(key, exp, otherSig),
      withQuery(key, exp, fileSignature(generateFileSigningSecret(), key, Number(exp))),
      `${url()}`.replace('processed.webp', 'raw.webp'),
    ]) {
      await refused(u);
    }
    // The other key's own URL works: the signature binds the key.
    const other = await fetch(signedFileUrl(h.url, otherKey, h.fileUrls));
    expect(other.status).toBe(200);
    expect(await other.text()).toBe('another artifact');
  });

  it('refuses an expired URL with 403 and says so, and a forged expired one with 404', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = withQuery(key, String(past), fileSignature(h.fileUrls.secret, key, past));
    const res = await fetch(expired);
    expect(res.status).toBe(403);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(((await res.json()) as { detail: string }).detail).toMatch(/expired/);
    // Expired or not, the answer comes before the file is looked up: a missing file's expired URL is 403 too.
    const gone = 'artifacts/illustration/artifact-0000000000000000/processed.webp';
    expect((await fetch(withQuery(gone, String(past), fileSignature(h.fileUrls.secret, gone, past)))).status).toBe(403);
    await refused(withQuery(key, String(past), fileSignature(generateFileSigningSecret(), key, past)));
    // A URL signed a moment ago with a one-second lifetime dies a second later.
    const short = signedFileUrl(h.url, key, fileUrlSigning(h.fileUrls.secret, 1));
    expect((await fetch(short)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await fetch(short)).status).toBe(403);
  });

  it('revokes every URL handed out when the secret is rotated', async () => {
    const before = url();
    expect((await fetch(before)).status).toBe(200);
    const rotated = fileUrlSigning(generateFileSigningSecret());
    const gateway = await startApiServer(h.gatewayServices({ fileUrls: rotated, dispatcher: { wake() {} } }), 0, '127.0.0.1');
    try {
      const old = new URL(before);
      const res = await fetch(`${gateway.url}${old.pathname}${old.search}`);
      expect(res.status).toBe(404);
      await res.arrayBuffer();
      const fresh = await fetch(signedFileUrl(gateway.url, key, rotated));
      expect(fresh.status).toBe(200);
      expect(Buffer.from(await fresh.arrayBuffer()).equals(bytes)).toBe(true);
      // The old gateway, on its own secret, refuses the new URL in turn.
      const crossed = new URL(signedFileUrl(gateway.url, key, rotated));
      expect((await fetch(`${h.url}${crossed.pathname}${crossed.search}`)).status).toBe(404);
    } finally {
      await gateway.close();
    }
  });
});

describe('GET /v1/files/{key} on GCS storage', () => {
  const gcs = (extra: Partial<ConstructorParameters<typeof GcsStorage>[0]> = {}) =>
    new GcsStorage({ bucket: 'atelier-media', prefix: 'prod', public: true, apiEndpoint: 'https://storage.googleapis.com', ...extra });
  const app = (storage: GcsStorage) => createApp(h.gatewayServices({ storage, publicUrl: 'http://gateway.test' }));
  const path = (k: string) => {
    const u = new URL(signedFileUrl('http://gateway.test', k, h.fileUrls));
    return `${u.pathname}${u.search}`;
  };

  it('redirects a signed URL to the public object address, uncached, and nothing else', async () => {
    const res = await app(gcs()).request(path(key));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`https://storage.googleapis.com/atelier-media/prod/${key}`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect((await app(gcs()).request(path('private/secret.txt'))).status).toBe(404);
    for (const bad of [`/v1/files/${key}`, path(otherKey).replace(otherKey, key)]) {
      const refused = await app(gcs()).request(bad);
      expect(refused.status, bad).toBe(404);
      expect(refused.headers.get('location')).toBeNull();
    }
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = await app(gcs()).request(`/v1/files/${key}?exp=${past}&sig=${fileSignature(h.fileUrls.secret, key, past)}`);
    expect(expired.status).toBe(403);
    expect(expired.headers.get('location')).toBeNull();
  });

  it('fills content.url of an artifact with the signed gateway address, whatever the driver', async () => {
    const row = {
      // The artifact whose own file `key` is (the presenter signs no other).
      id: key.split('/')[2],
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
    const now = Date.now() / 1000;
    expect((await presentArtifact(row, { origin: 'https://atelier.example/', signing: h.fileUrls, nowSeconds: now })).content.url).toBe(
      signedFileUrl('https://atelier.example', key, h.fileUrls, now),
    );
    expect((await presentArtifact(row, { origin: h.url, signing: h.fileUrls })).content.url).toMatch(
      new RegExp(`^${h.url}/v1/files/${key}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`),
    );
    expect((await presentArtifact(row)).content.url).toBeUndefined();
  });
});
