import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ObjectNotFoundError, type StoredObject, type StreamableStorage, assertSafeKey, contentTypeFor } from './types.js';

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ENOENT' || (err as NodeJS.ErrnoException)?.code === 'EISDIR';

/** Files under a local directory, served by the gateway at /v1/files/{key}. */
export class LocalStorage implements StreamableStorage {
  readonly driver = 'local' as const;
  constructor(readonly root: string) {}

  private file(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a reader never sees half a file and a retried write is harmless. The temporary
    // name is random, so two writers of the same key never share one.
    const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, bytes);
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.file(key));
    } catch (err) {
      if (isMissing(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const s = await stat(this.file(key));
      if (!s.isFile()) return undefined;
      return {
        size: s.size,
        contentType: contentTypeFor(key),
        etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`,
        updatedAt: s.mtime,
      };
    } catch {
      // Missing, not a file, or a key that could never exist: all read as "no such object".
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
