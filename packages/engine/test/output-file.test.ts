import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputFileUrl, readOutputFile } from '../src/providers/output-file.js';
import { PermanentProviderError } from '../src/providers/types.js';

/** A loopback file host: /sized/N answers N bytes with their length, /chunked/N writes N 1 KB chunks a few ms apart. */
let server: Server;
let base: string;
const chunked = { written: 0, closedEarly: false };

beforeAll(async () => {
  server = createServer((req, res) => {
    const [, kind, n] = (req.url ?? '').split('/');
    const count = Number(n);
    if (kind === 'sized') {
      res.writeHead(200, { 'content-length': String(count) }).end(Buffer.alloc(count, 7));
      return;
    }
    chunked.written = 0;
    chunked.closedEarly = false;
    res.writeHead(200, { 'content-type': 'video/mp4' });
    res.on('close', () => {
      if (chunked.written < count) chunked.closedEarly = true;
    });
    const next = () => {
      if (res.destroyed) return;
      if (chunked.written === count) return void res.end();
      chunked.written++;
      res.write(Buffer.alloc(1024, 1));
      setTimeout(next, 5);
    };
    next();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('outputFileUrl', () => {
  it('takes http and https, resolving a relative URL against the base', () => {
    expect(outputFileUrl('the file', 'https://cdn.example/a.png').href).toBe('https://cdn.example/a.png');
    expect(outputFileUrl('the file', '/v1/files/x:download', 'https://api.example').href).toBe('https://api.example/v1/files/x:download');
  });

  it('refuses other schemes and what is not a URL, for good', () => {
    for (const raw of ['file:///etc/passwd', 'ftp://host/a', 'data:text/plain,hi']) {
      expect(() => outputFileUrl('the file', raw)).toThrow(PermanentProviderError);
    }
    expect(() => outputFileUrl('the file', 'not a url')).toThrow(/not a URL/);
  });
});

describe('readOutputFile', () => {
  it('reads a body within the bound whole', async () => {
    const bytes = await readOutputFile(await fetch(`${base}/sized/5000`), 5000, 'the file');
    expect(bytes.length).toBe(5000);
    expect(bytes.every((b) => b === 7)).toBe(true);
    const streamed = await readOutputFile(await fetch(`${base}/chunked/8`), 8 * 1024, 'the clip');
    expect(streamed.length).toBe(8 * 1024);
  });

  it('refuses a declared length over the bound before reading it', async () => {
    await expect(readOutputFile(await fetch(`${base}/sized/5001`), 5000, 'the file')).rejects.toThrow(
      new PermanentProviderError('the file is 5001 bytes, over the 5000 accepted'),
    );
  });

  it('cuts off a body that runs past the bound, without waiting for the rest', async () => {
    await expect(readOutputFile(await fetch(`${base}/chunked/200`), 10 * 1024, 'the clip')).rejects.toThrow(
      'the clip is over the 10240 bytes accepted',
    );
    await expect.poll(() => chunked.closedEarly).toBe(true);
    expect(chunked.written).toBeLessThan(200);
  });
});
