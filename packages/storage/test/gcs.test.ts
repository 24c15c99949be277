import { createHash, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageFromConfig } from '../src/config.js';
import { GcsStorage } from '../src/gcs.js';
import { LocalStorage } from '../src/local.js';
import { ObjectNotFoundError } from '../src/types.js';
import { type RunningEmulator, startEmulator } from './gcs-emulator.js';

/**
 * The GCS driver against the real gcp-storage-emulator over HTTP. The emulator does not check
 * signatures, so a signed URL is checked here the way GCS would: its V4 signature is verified against
 * the service account's public key.
 */
const BUCKET = 'atelier-test';
let emulator: RunningEmulator;
let scratch: string;
let keyFile: string;
let publicKeyPem: string;
const CLIENT_EMAIL = 'atelier-test@atelier-test-project.iam.gserviceaccount.com';

beforeAll(async () => {
  emulator = await startEmulator(BUCKET);
  scratch = await mkdtemp(path.join(tmpdir(), 'atelier-gcs-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  keyFile = path.join(scratch, 'service-account.json');
  await writeFile(
    keyFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'atelier-test-project',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: CLIENT_EMAIL,
      client_id: '1234567890',
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
  );
}, 300_000);

afterAll(async () => {
  await emulator?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const driver = (extra: Partial<ConstructorParameters<typeof GcsStorage>[0]> = {}) =>
  new GcsStorage({ bucket: BUCKET, apiEndpoint: emulator.host, projectId: 'atelier-test-project', keyFile, ...extra });
const key = (name = 'raw.webp') => `artifacts/illustration/artifact-${randomBytes(8).toString('hex')}/${name}`;

describe('GCS driver against the emulator', () => {
  it('puts, gets, stats and deletes an object', async () => {
    const gcs = driver({ prefix: 'stage' });
    const k = key();
    const bytes = randomBytes(70_000);
    await gcs.put(k, bytes, 'image/webp');
    expect((await gcs.get(k)).equals(bytes)).toBe(true);
    const stat = await gcs.stat(k);
    expect(stat).toMatchObject({ size: 70_000, contentType: 'image/webp' });
    expect(stat?.etag).toMatch(/^".+"$/);
    expect(stat?.updatedAt).toBeInstanceOf(Date);

    // Overwriting is a plain replace (a retried step writes the same key again).
    const again = randomBytes(10);
    await gcs.put(k, again, 'image/webp');
    expect((await gcs.get(k)).equals(again)).toBe(true);

    await gcs.delete(k);
    expect(await gcs.stat(k)).toBeUndefined();
    await expect(gcs.get(k)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await gcs.delete(k); // deleting what is gone is fine
  });

  it('answers a missing object with undefined from stat and ObjectNotFoundError from get', async () => {
    const gcs = driver();
    const k = key('never-written.webp');
    expect(await gcs.stat(k)).toBeUndefined();
    const err = await gcs.get(k).catch((e) => e);
    expect(err).toBeInstanceOf(ObjectNotFoundError);
    expect(err.code).toBe('ENOENT');
  });

  it('keeps every key under its prefix, so two prefixes in one bucket never see each other', async () => {
    const a = driver({ prefix: 'tenant-a/' });
    const b = driver({ prefix: '/tenant-b' });
    const unprefixed = driver();
    const k = key();
    await a.put(k, Buffer.from('from a'), 'image/webp');
    await b.put(k, Buffer.from('from b'), 'image/webp');
    expect((await a.get(k)).toString()).toBe('from a');
    expect((await b.get(k)).toString()).toBe('from b');
    expect(await unprefixed.stat(k)).toBeUndefined();

    const [files] = await new Storage({ apiEndpoint: emulator.host, projectId: 'atelier-test-project' }).bucket(BUCKET).getFiles();
    const names = files.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining([`tenant-a/${k}`, `tenant-b/${k}`]));
    expect(names).not.toContain(k);

    await a.delete(k);
    expect(await a.stat(k)).toBeUndefined();
    expect((await b.get(k)).toString()).toBe('from b');
  });

  it('refuses keys that climb out of the prefix', async () => {
    const gcs = driver({ prefix: 'tenant-a' });
    await expect(gcs.put('../tenant-b/artifacts/x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(/invalid storage key/);
    await expect(gcs.get('artifacts/../../x')).rejects.toThrow(/invalid storage key/);
    expect(() => new GcsStorage({ bucket: BUCKET, prefix: 'a/../b', apiEndpoint: emulator.host })).toThrow(/invalid storage key/);
  });

  it('gives the public address when configured public, and it downloads the bytes', async () => {
    const gcs = driver({ prefix: 'pub', public: true });
    const k = key('processed.webp');
    const bytes = randomBytes(4096);
    await gcs.put(k, bytes, 'image/webp');
    const url = await gcs.url(k, 'http://ignored.example');
    expect(url).toBe(`${emulator.host}/${BUCKET}/pub/${k}`);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    // Against Google itself the public address is storage.googleapis.com.
    const real = new GcsStorage({ bucket: BUCKET, prefix: 'pub', public: true, apiEndpoint: 'https://storage.googleapis.com' });
    expect(await real.url(k, '')).toBe(`https://storage.googleapis.com/${BUCKET}/pub/${k}`);
  });

  it('signs a V4 URL for a private bucket, with the configured lifetime and a signature the key verifies', async () => {
    const gcs = driver({ prefix: 'priv', signedUrlTtlSeconds: 900 });
    const k = key('processed.webp');
    const bytes = randomBytes(2048);
    await gcs.put(k, bytes, 'image/webp');
    const signed = new URL(await gcs.url(k, 'http://ignored.example'));
    expect(`${signed.origin}${signed.pathname}`).toBe(`${emulator.host}/${BUCKET}/priv/${k}`);
    const q = signed.searchParams;
    expect(q.get('X-Goog-Algorithm')).toBe('GOOG4-RSA-SHA256');
    expect(q.get('X-Goog-Expires')).toBe('900');
    expect(q.get('X-Goog-SignedHeaders')).toBe('host');
    const credential = q.get('X-Goog-Credential') ?? '';
    expect(credential).toMatch(new RegExp(`^${CLIENT_EMAIL.replace(/\./g, '\\.')}/\\d{8}/auto/storage/goog4_request$`));
    const date = q.get('X-Goog-Date') ?? '';
    expect(date).toMatch(/^\d{8}T\d{6}Z$/);
    expect(
      Math.abs(
        Date.parse(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`) -
          Date.now(),
      ),
    ).toBeLessThan(60_000);
    const signature = q.get('X-Goog-Signature') ?? '';
    expect(signature).toMatch(/^[0-9a-f]{512}$/);

    // Rebuild the V4 canonical request and check the signature as GCS would.
    const query = [...q.entries()]
      .filter(([name]) => name !== 'X-Goog-Signature')
      .map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`)
      .sort()
      .join('&');
    const canonical = ['GET', signed.pathname, query, `host:${signed.hostname}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
    const scope = credential.split('/').slice(1).join('/');
    const verifies = (request: string) =>
      createVerify('RSA-SHA256')
        .update(['GOOG4-RSA-SHA256', date, scope, createHash('sha256').update(request).digest('hex')].join('\n'))
        .verify(publicKeyPem, Buffer.from(signature, 'hex'));
    expect(verifies(canonical)).toBe(true);
    // The signature covers the object: the same signature on another key is worthless.
    expect(verifies(canonical.replace('/priv/', '/priv2/'))).toBe(false);

    // The emulator ignores the signature but serves the object at the signed address.
    const res = await fetch(signed);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe('storageFromConfig', () => {
  it('builds the local driver by default and the GCS driver from GCS_* settings', () => {
    const local = storageFromConfig({ ATELIER_STORAGE_DIR: path.join(scratch, 'files') });
    expect(local).toBeInstanceOf(LocalStorage);
    expect((local as LocalStorage).root).toBe(path.join(scratch, 'files'));
    expect((storageFromConfig({}, { localDir: '/srv/atelier' }) as LocalStorage).root).toBe('/srv/atelier');

    const gcs = storageFromConfig({
      ATELIER_STORAGE: 'gcs',
      GCS_BUCKET: BUCKET,
      GCS_PREFIX: 'prod',
      GCS_PROJECT_ID: 'atelier-test-project',
      GCS_KEY_FILE: keyFile,
      GCS_PUBLIC: 'false',
      GCS_SIGNED_URL_TTL_SECONDS: '600',
      STORAGE_EMULATOR_HOST: emulator.host,
    }) as GcsStorage;
    expect(gcs).toBeInstanceOf(GcsStorage);
    expect(gcs).toMatchObject({ driver: 'gcs', bucket: BUCKET, prefix: 'prod/', isPublic: false, signedUrlTtlSeconds: 600 });
    expect((storageFromConfig({ ATELIER_STORAGE: 'gcs', GCS_BUCKET: BUCKET, GCS_PUBLIC: 'true' }) as GcsStorage).isPublic).toBe(true);
  });

  it('works end to end through the emulator when configured from the environment', async () => {
    const gcs = storageFromConfig({
      ATELIER_STORAGE: 'gcs',
      GCS_BUCKET: BUCKET,
      GCS_PREFIX: 'env',
      GCS_PUBLIC: 'true',
      STORAGE_EMULATOR_HOST: emulator.host,
    });
    const k = key();
    await gcs.put(k, Buffer.from('configured'), 'image/webp');
    expect(await (await fetch(await gcs.url(k, ''))).text()).toBe('configured');
  });

  it('refuses bad settings, naming the variable', () => {
    expect(() => storageFromConfig({ ATELIER_STORAGE: 's3' })).toThrow(/ATELIER_STORAGE must be local or gcs/);
    expect(() => storageFromConfig({ ATELIER_STORAGE: 'gcs' })).toThrow(/GCS_BUCKET is required/);
    expect(() => storageFromConfig({ ATELIER_STORAGE: 'gcs', GCS_BUCKET: BUCKET, GCS_PUBLIC: 'maybe' })).toThrow(
      /GCS_PUBLIC must be true or false/,
    );
    expect(() => storageFromConfig({ ATELIER_STORAGE: 'gcs', GCS_BUCKET: BUCKET, GCS_SIGNED_URL_TTL_SECONDS: '-5' })).toThrow(
      /GCS_SIGNED_URL_TTL_SECONDS/,
    );
    expect(() => storageFromConfig({ ATELIER_STORAGE: 'gcs', GCS_BUCKET: BUCKET, GCS_SIGNED_URL_TTL_SECONDS: '9999999' })).toThrow(
      /signed URL lifetime/,
    );
    expect(() => storageFromConfig({ ATELIER_STORAGE: 'gcs', GCS_BUCKET: 'Bad_Bucket!' })).toThrow(/bucket name/);
  });
});

function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
