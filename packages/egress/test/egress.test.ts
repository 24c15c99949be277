import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_EGRESS_POLICY,
  type EgressPolicy,
  EgressRefused,
  EgressStatusError,
  LOOPBACK_HOSTS,
  REFUSED_TARGET_MESSAGE,
  checkEgressTarget,
  egressDownload,
  egressFetch,
  egressPolicyFromEnv,
  forbiddenAddressKind,
} from '../src/index.js';

/**
 * Real loopback servers and real sockets. "Deny" is the production policy; "allow" lets private
 * addresses through as `npm start` does. Every refusal must come before a connection is made, so each
 * server counts the connections it accepts.
 */
interface Local {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
}

async function serve(host: string, handler: (req: IncomingMessage, res: ServerResponse, local: Local) => void): Promise<Local> {
  const local = { connections: 0, requests: [] } as unknown as Local;
  local.server = createServer((req, res) => {
    local.requests.push(req.url ?? '');
    handler(req, res, local);
  });
  local.server.on('connection', () => local.connections++);
  await new Promise<void>((resolve) => local.server.listen(0, host, resolve));
  local.port = (local.server.address() as AddressInfo).port;
  return local;
}

const deny: EgressPolicy = { ...DEFAULT_EGRESS_POLICY, allowHosts: [] };
const allow: EgressPolicy = { ...DEFAULT_EGRESS_POLICY, allowPrivate: true };

async function refusal(work: Promise<unknown>): Promise<EgressRefused> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the request to be refused').toBeInstanceOf(EgressRefused);
  return err as EgressRefused;
}

let v4: Local;
let v6: Local;
let other: Local;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'egress-test-'));
  v4 = await serve('127.0.0.1', (req, res, local) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hello') {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-seen': String(local.requests.length) });
      res.end('hello');
    } else if (url.pathname === '/to-other') {
      res.writeHead(302, { location: `http://127.0.0.2:${other.port}/secret` });
      res.end();
    } else if (url.pathname === '/to-localhost') {
      res.writeHead(302, { location: `http://localhost:${v4.port}/hello` });
      res.end();
    } else if (url.pathname === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    } else if (url.pathname.startsWith('/loop/')) {
      const n = Number(url.pathname.slice('/loop/'.length));
      res.writeHead(302, { location: `/loop/${n + 1}` });
      res.end();
    } else if (url.pathname === '/post-then-see-other') {
      res.writeHead(303, { location: '/method' });
      res.end();
    } else if (url.pathname === '/method') {
      res.writeHead(200);
      res.end(req.method);
    } else if (url.pathname === '/endless') {
      // No content-length: the size is only known by counting.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      pump();
    } else if (url.pathname === '/declared-huge') {
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      res.write('a few bytes');
    } else if (url.pathname === '/slow') {
      res.writeHead(200);
      res.write('a start, and then nothing');
    } else if (url.pathname === '/silent') {
      // never answers
    } else if (url.pathname === '/video') {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(Buffer.alloc(300_000, 1));
    } else if (url.pathname === '/broken') {
      res.writeHead(503);
      res.end('down');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  v6 = await serve('::1', (_req, res) => {
    res.writeHead(200);
    res.end('six');
  });
  other = await serve('127.0.0.2', (_req, res) => {
    res.writeHead(200);
    res.end('internal secret');
  });
});

afterAll(async () => {
  for (const l of [v4, v6, other]) {
    l?.server.closeAllConnections();
    await new Promise((resolve) => l?.server.close(resolve));
  }
  await rm(scratch, { recursive: true, force: true });
});

describe('deny (the production policy)', () => {
  it('refuses loopback by address, by name and in IPv6 and IPv4-mapped form, before connecting', async () => {
    const before = v4.connections + v6.connections;
    for (const [url, host] of [
      [`http://127.0.0.1:${v4.port}/hello`, '127.0.0.1'],
      [`http://localhost:${v4.port}/hello`, 'localhost'],
      [`http://[::1]:${v6.port}/`, '[::1]'],
      [`http://[::ffff:127.0.0.1]:${v4.port}/hello`, '[::ffff:7f00:1]'],
      // The shorthand forms the URL parser turns into 127.0.0.1.
      [`http://2130706433:${v4.port}/hello`, '127.0.0.1'],
      [`http://0x7f.1:${v4.port}/hello`, '127.0.0.1'],
    ] as const) {
      const err = await refusal(egressFetch(url, {}, deny));
      expect(err.reason, url).toBe('address');
      expect(err.host).toBe(host);
      expect(err.message).toBe(REFUSED_TARGET_MESSAGE);
    }
    expect(v4.connections + v6.connections).toBe(before);
  });

  it('refuses private, link-local (cloud metadata) and CGNAT addresses without trying them', async () => {
    for (const host of [
      '10.1.2.3',
      '169.254.169.254',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '[fd00::1]',
      '[fe80::1]',
      '[::ffff:169.254.169.254]',
    ]) {
      const started = Date.now();
      const err = await refusal(egressFetch(`http://${host}/latest/meta-data/`, {}, deny));
      expect(err.reason, host).toBe('address');
      // Refused on the spot: an attempt to connect to an unrouted private address would take far longer.
      expect(Date.now() - started).toBeLessThan(500);
    }
    const download = await refusal(egressDownload('http://169.254.169.254/latest/meta-data/', path.join(scratch, 'meta'), {}, deny));
    expect(download.reason).toBe('address');
    expect(await readdir(scratch)).not.toContain('meta');
  });

  it('checks the address a name resolves to at connect time: a name for a loopback address is refused and never connected', async () => {
    const before = v4.connections;
    // localhost stands for any name an attacker points at an internal address (DNS rebinding): only the
    // lookup inside the socket sees it, and the socket refuses it there.
    const err = await refusal(egressFetch(`http://localhost:${v4.port}/hello`, {}, deny));
    expect(err.reason).toBe('address');
    expect(err.message).toBe(REFUSED_TARGET_MESSAGE);
    expect(err.message).not.toContain('127.0.0.1');
    expect(err.detail).toBe('localhost resolved to 127.0.0.1 (loopback)');
    expect(v4.connections).toBe(before);
  });

  it('tells the caller the same about an internal address, an internal name and a name that does not resolve; the difference goes to detail', async () => {
    const before = v4.connections + v6.connections;
    const seen = new Map<string, EgressRefused>();
    for (const url of [`http://127.0.0.1:${v4.port}/`, 'http://10.0.0.1/', `http://localhost:${v4.port}/`, 'http://nothing.invalid/']) {
      seen.set(url, await refusal(egressFetch(url, {}, deny)));
    }
    // Not resolving is refused the same way under any policy, allow included.
    seen.set('allow: http://nothing.invalid/', await refusal(egressFetch('http://nothing.invalid/', {}, allow)));
    seen.set(
      'download: http://nothing.invalid/',
      await refusal(egressDownload('http://nothing.invalid/', path.join(scratch, 'none'), {}, deny)),
    );
    for (const [url, err] of seen) expect(err.message, url).toBe(REFUSED_TARGET_MESSAGE);
    expect(seen.get(`http://127.0.0.1:${v4.port}/`)!.detail).toBe('127.0.0.1 is a loopback address');
    expect(seen.get('http://10.0.0.1/')!.detail).toBe('10.0.0.1 is a private address');
    expect(seen.get('http://nothing.invalid/')!.detail).toContain('ENOTFOUND');
    expect(v4.connections + v6.connections).toBe(before);
  });

  it('checks a target when it is named, by the same rules, without connecting', async () => {
    const before = v4.connections + v6.connections;
    for (const url of [
      `http://127.0.0.1:${v4.port}/hook`,
      'http://10.0.0.1/',
      `http://localhost:${v4.port}/`,
      'http://[::1]/',
      'http://nothing.invalid/',
    ]) {
      const err = await refusal(checkEgressTarget(url, deny));
      expect(err.message, url).toBe(REFUSED_TARGET_MESSAGE);
      expect(err.detail, url).toBeTruthy();
    }
    expect((await refusal(checkEgressTarget('ftp://example.com/x', deny))).reason).toBe('scheme');
    // What the policy allows passes: loopback under allow or by its blocks; a missing name never does.
    await checkEgressTarget(`http://localhost:${v4.port}/hook`, allow);
    await checkEgressTarget(`http://127.0.0.1:${v4.port}/hook`, { ...deny, allowHosts: [...LOOPBACK_HOSTS] });
    expect((await refusal(checkEgressTarget('http://nothing.invalid/', allow))).message).toBe(REFUSED_TARGET_MESSAGE);
    expect(v4.connections + v6.connections).toBe(before);
  });

  it('follows a redirect from an allowed host only if its target is allowed too, checking every hop', async () => {
    const onlyFirst: EgressPolicy = { ...deny, allowHosts: ['127.0.0.1'] };
    expect((await egressFetch(`http://127.0.0.1:${v4.port}/hello`, {}, onlyFirst)).body.toString()).toBe('hello');
    const err = await refusal(egressFetch(`http://127.0.0.1:${v4.port}/to-other`, {}, onlyFirst));
    expect(err.reason).toBe('address');
    expect(err.host).toBe('127.0.0.2');
    expect(other.requests).toEqual([]);
    expect(other.connections).toBe(0);
    // Allowed by name: localhost is, and its address with it, but 127.0.0.2 is still not.
    const byName: EgressPolicy = { ...deny, allowHosts: ['localhost'] };
    expect((await egressFetch(`http://localhost:${v4.port}/hello`, {}, byName)).status).toBe(200);
    expect((await refusal(egressFetch(`http://localhost:${v4.port}/to-other`, {}, byName))).reason).toBe('address');
  });

  it('refuses schemes other than http and https, also as a redirect target', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:70/', 'data:text/plain,hi', 'not a url']) {
      expect((await refusal(egressFetch(url, {}, allow))).reason, url).toBe('scheme');
    }
    expect((await refusal(egressFetch(`http://127.0.0.1:${v4.port}/to-file`, {}, allow))).reason).toBe('scheme');
  });
});

describe('allow (npm start) and the caps that hold in every mode', () => {
  it('fetches loopback when private addresses are allowed, or by the loopback blocks in allowHosts', async () => {
    const res = await egressFetch(`http://127.0.0.1:${v4.port}/hello`, {}, allow);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.url).toBe(`http://127.0.0.1:${v4.port}/hello`);
    const loopbackOnly: EgressPolicy = { ...deny, allowHosts: [...LOOPBACK_HOSTS] };
    expect((await egressFetch(`http://[::1]:${v6.port}/`, {}, loopbackOnly)).body.toString()).toBe('six');
    expect((await egressFetch(`http://localhost:${v4.port}/hello`, {}, loopbackOnly)).body.toString()).toBe('hello');
    expect((await egressFetch(`http://[::ffff:127.0.0.1]:${v4.port}/hello`, {}, loopbackOnly)).body.toString()).toBe('hello');
    // ...but nothing else private.
    expect((await refusal(egressFetch('http://10.0.0.1/', {}, loopbackOnly))).reason).toBe('address');
  });

  it('follows redirects up to maxRedirects and refuses the next one; or hands the 3xx back when asked not to follow', async () => {
    const three = await egressFetch(`http://127.0.0.1:${v4.port}/to-localhost`, {}, allow);
    expect(three.url).toBe(`http://localhost:${v4.port}/hello`);
    expect(three.body.toString()).toBe('hello');
    const before = v4.requests.length;
    const err = await refusal(egressFetch(`http://127.0.0.1:${v4.port}/loop/0`, {}, { ...allow, maxRedirects: 3 }));
    expect(err.reason).toBe('redirects');
    expect(err.message).toBe('127.0.0.1 redirected more than 3 times');
    expect(v4.requests.slice(before)).toEqual(['/loop/0', '/loop/1', '/loop/2', '/loop/3']);
    const unfollowed = await egressFetch(`http://127.0.0.1:${v4.port}/loop/7`, { followRedirects: false }, allow);
    expect(unfollowed.status).toBe(302);
    expect(unfollowed.redirectedTo).toBe(`http://127.0.0.1:${v4.port}/loop/8`);
    const posted = await egressFetch(
      `http://127.0.0.1:${v4.port}/post-then-see-other`,
      { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } },
      allow,
    );
    expect(posted.body.toString()).toBe('GET');
  });

  it('caps the size while streaming when the server sends no content-length, and by a declared length at once', async () => {
    const small = { ...allow, maxBytes: 256 * 1024 };
    const fetched = await refusal(egressFetch(`http://127.0.0.1:${v4.port}/endless`, {}, small));
    expect(fetched.reason).toBe('too_large');
    expect(fetched.message).toBe('the response from 127.0.0.1 is larger than 256 KB');
    const file = path.join(scratch, 'endless.bin');
    const downloaded = await refusal(egressDownload(`http://127.0.0.1:${v4.port}/endless`, file, {}, small));
    expect(downloaded.reason).toBe('too_large');
    await expect(readFile(file)).rejects.toThrow();
    expect((await refusal(egressDownload(`http://127.0.0.1:${v4.port}/declared-huge`, file, {}, small))).reason).toBe('too_large');
  });

  it('downloads to disk, and reports a status that is not 2xx for the caller to judge', async () => {
    const file = path.join(scratch, 'video.mp4');
    const got = await egressDownload(`http://127.0.0.1:${v4.port}/video`, file, {}, allow);
    expect(got).toEqual({ bytes: 300_000, contentType: 'video/mp4' });
    expect((await readFile(file)).length).toBe(300_000);
    const status = await egressDownload(`http://127.0.0.1:${v4.port}/broken`, path.join(scratch, 'broken'), {}, allow).catch(
      (e: unknown) => e,
    );
    expect(status).toBeInstanceOf(EgressStatusError);
    expect(status).toMatchObject({ status: 503, message: '127.0.0.1 answered HTTP 503' });
  });

  it('times out the whole exchange: a server that never answers, and one that stops halfway', async () => {
    const quick = { ...allow, timeoutMs: 300 };
    for (const p of ['/silent', '/slow']) {
      const started = Date.now();
      const err = await refusal(egressFetch(`http://127.0.0.1:${v4.port}${p}`, {}, quick));
      expect(err.reason, p).toBe('timeout');
      expect(err.message).toBe('127.0.0.1 did not answer in full within 0.3 s');
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    const file = path.join(scratch, 'slow.bin');
    expect((await refusal(egressDownload(`http://127.0.0.1:${v4.port}/slow`, file, {}, quick))).reason).toBe('timeout');
    await expect(readFile(file)).rejects.toThrow();
  });

  it('stops when the caller aborts, with the caller’s reason', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the run')), 100);
    await expect(egressFetch(`http://127.0.0.1:${v4.port}/silent`, { signal: controller.signal }, allow)).rejects.toThrow(
      'cancelled by the run',
    );
  });

  it('says a closed port is unreachable without local detail', async () => {
    const err = await refusal(egressFetch('http://127.0.0.1:1/', {}, allow));
    expect(err.reason).toBe('unreachable');
    expect(err.message).toBe('127.0.0.1 refused the connection');
  });
});

describe('addresses and settings', () => {
  it('classifies the ranges, including IPv6 forms that carry IPv4 addresses', () => {
    const cases: Array<[string, string | undefined]> = [
      ['8.8.8.8', undefined],
      ['2606:4700:4700::1111', undefined],
      ['127.1.2.3', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:8.8.8.8', undefined],
      ['64:ff9b::a9fe:a9fe', 'link-local'],
      ['2002:c0a8:0101::1', 'private'],
      ['::127.0.0.1', 'loopback'],
      ['10.255.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', undefined],
      ['192.168.0.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['fd12:3456::1', 'private'],
      ['100.64.0.1', 'shared (CGNAT)'],
      ['100.128.0.1', undefined],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['not-an-address', 'invalid'],
    ];
    for (const [address, kind] of cases) expect(forbiddenAddressKind(address), address).toBe(kind);
  });

  it('reads the policy from the environment: deny by default, true|false and a comma list over the defaults', () => {
    expect(egressPolicyFromEnv({})).toEqual({
      allowPrivate: false,
      allowHosts: [],
      maxRedirects: 3,
      timeoutMs: 15_000,
      maxBytes: 200 * 1024 * 1024,
    });
    expect(egressPolicyFromEnv({ ATELIER_EGRESS_ALLOW_PRIVATE: 'true' }).allowPrivate).toBe(true);
    expect(egressPolicyFromEnv({ ATELIER_EGRESS_ALLOW_PRIVATE: 'false' }, { allowPrivate: true }).allowPrivate).toBe(false);
    expect(
      egressPolicyFromEnv({ ATELIER_EGRESS_ALLOW: ' fonts.internal, 10.20.0.0/16 ,*.example.com,::1' }, { allowHosts: ['127.0.0.0/8'] })
        .allowHosts,
    ).toEqual(['127.0.0.0/8', 'fonts.internal', '10.20.0.0/16', '*.example.com', '::1']);
    expect(() => egressPolicyFromEnv({ ATELIER_EGRESS_ALLOW_PRIVATE: 'maybe' })).toThrow(
      'ATELIER_EGRESS_ALLOW_PRIVATE must be true or false',
    );
    expect(() => egressPolicyFromEnv({ ATELIER_EGRESS_ALLOW: '10.0.0.0/99' })).toThrow('10.0.0.0/99');
  });
});
