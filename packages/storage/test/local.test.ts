import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../src/local.js';
import { ObjectNotFoundError, isStreamable } from '../src/types.js';

let scratch: string;
let storage: LocalStorage;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'atelier-local-'));
  storage = new LocalStorage(path.join(scratch, 'root'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('LocalStorage', () => {
  it('puts, gets, stats, streams ranges and deletes', async () => {
    const key = 'artifacts/illustration/artifact-0011223344556677/raw.webp';
    const bytes = randomBytes(10_000);
    await storage.put(key, bytes);
    expect((await storage.get(key)).equals(bytes)).toBe(true);
    const stat = await storage.stat(key);
    expect(stat).toMatchObject({ size: 10_000, contentType: 'image/webp' });
    expect(stat?.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(isStreamable(storage)).toBe(true);
    const chunks: Buffer[] = [];
    for await (const chunk of storage.stream(key, { start: 100, end: 199 })) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes.subarray(100, 200))).toBe(true);
    expect(await storage.url(key, 'https://atelier.example/')).toBe(`https://atelier.example/v1/files/${key}`);
    await storage.delete(key);
    expect(await storage.stat(key)).toBeUndefined();
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('refuses keys that climb out of the root, and never touches the file outside', async () => {
    const outside = path.join(scratch, 'secret.txt');
    await writeFile(outside, 'do not read');
    for (const key of [
      '../secret.txt',
      'artifacts/../../secret.txt',
      '/etc/passwd',
      'artifacts//x.webp',
      './x',
      'a/./b',
      'artifacts\\..\\x',
      '',
      'artifacts/x\u0000.webp',
      '%2e%2e/secret.txt',
    ]) {
      await expect(storage.get(key), key).rejects.toThrow(/invalid storage key/);
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/invalid storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/invalid storage key/);
      await expect(storage.url(key, 'http://x'), key).rejects.toThrow(/invalid storage key/);
      expect(() => storage.stream(key), key).toThrow(/invalid storage key/);
      expect(await storage.stat(key), key).toBeUndefined();
    }
    expect(await filesUnder(scratch)).toEqual(['secret.txt']);
  });

  it('answers a directory or a missing key as no object', async () => {
    await mkdir(path.join(storage.root, 'artifacts', 'folder'), { recursive: true });
    expect(await storage.stat('artifacts/folder')).toBeUndefined();
    expect(await storage.stat('artifacts/nothing/here.webp')).toBeUndefined();
    await expect(storage.get('artifacts/folder')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('writes atomically: concurrent readers see the old or the new bytes whole, never a mix, and no temporary file stays', async () => {
    const key = 'artifacts/cutout/artifact-8899aabbccddeeff/processed.webp';
    const versions = Array.from({ length: 6 }, (_, i) => Buffer.alloc(3_000_000, i + 1));
    await storage.put(key, versions[0]!);
    let reading = true;
    const seen = new Set<number>();
    const reader = (async () => {
      while (reading) {
        const got = await storage.get(key);
        expect(got.length).toBe(3_000_000);
        const first = got[0]!;
        expect(got.every((b) => b === first)).toBe(true);
        seen.add(first);
      }
    })();
    // Several writers of the same key at the same moment: each rename is whole, the last one wins.
    for (let round = 0; round < 3; round++) await Promise.all(versions.map((v) => storage.put(key, v)));
    reading = false;
    await reader;
    expect(seen.size).toBeGreaterThanOrEqual(1);
    const final = await storage.get(key);
    expect(versions.some((v) => v.equals(final))).toBe(true);
    expect((await filesUnder(storage.root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves no temporary file behind when a write fails', async () => {
    // The target is a directory, so the rename fails after the temporary file was written.
    const key = 'artifacts/illustration/artifact-0000000000000001/raw.webp';
    await mkdir(path.join(storage.root, key), { recursive: true });
    await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow();
    expect((await filesUnder(path.dirname(path.join(storage.root, key)))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
