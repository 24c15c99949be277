import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type ObjectStorage, type StoredObject, assertSafeKey, contentTypeFor } from './types';

/** Files under a local directory, served by the gateway at /v1/files/{key}. */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  constructor(readonly root: string) {}

  private file(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a reader never sees half a file and a retried write is harmless.
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, target);
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.file(key));
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const s = await stat(this.file(key));
      return s.isFile() ? { size: s.size, contentType: contentTypeFor(key) } : undefined;
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async url(key: string, origin: string): Promise<string> {
    assertSafeKey(key);
    return `${origin.replace(/\/$/, '')}/v1/files/${key}`;
  }

  /** A byte range of the file (inclusive end), for the gateway's range requests. */
  stream(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.file(key), range);
  }
}
