import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http2 from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import tls from 'node:tls';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOOPBACK_TLS } from '../../../test/support/loopback-tls.js';
import { registerProviderConnectionMetrics } from '../src/metrics.js';
import { ProviderTransport, transportOptionsFromEnv } from '../src/providers/http-transport.js';

type Held = { version: string; path: string; body: string; answer: (status: number, text?: string) => void; reset: () => void };

/**
 * A provider over TLS that holds each request until the test answers it. `h2` offers HTTP/2 (and HTTP/1.1,
 * as real providers do); otherwise the handshake can only choose HTTP/1.1.
 */
async function provider(kind: 'h2' | 'http/1.1', maxConcurrentStreams = 100) {
  const held: Held[] = [];
  const sessions: http2.ServerHttp2Session[] = [];
  const onRequest = (req: http2.Http2ServerRequest | IncomingMessage, res: http2.Http2ServerResponse | ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () =>
      held.push({
        version: req.httpVersion,
        path: req.url ?? '',
        body,
        reset: () => (req as http2.Http2ServerRequest).stream.close(http2.constants.NGHTTP2_NO_ERROR),
        answer: (status, text) => {
          res.writeHead(status, { 'content-type': 'application/json', 'x-seen-auth': String(req.headers.authorization) });
          // Two pieces, so the caller reads a body that arrives over time.
          const out = res as ServerResponse;
          if (text === undefined) out.end();
          else {
            out.write(text.slice(0, 3));
            out.end(text.slice(3));
          }
        },
      }),
    );
  };
  const tls = { cert: LOOPBACK_TLS.cert(), key: LOOPBACK_TLS.key() };
  const server =
    kind === 'h2'
      ? http2.createSecureServer({ ...tls, allowHTTP1: true, settings: { maxConcurrentStreams } }, onRequest)
      : https.createServer(tls, onRequest);
  if (kind === 'h2') (server as http2.Http2SecureServer).on('session', (s) => sessions.push(s));
  // Every connection made to it, the ones only asked which protocol it speaks included.
  const connections = { count: 0 };
  server.on('connection', () => connections.count++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://localhost:${(server.address() as AddressInfo).port}`;
  closers.push(async () => {
    for (const s of sessions) s.destroy();
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const until = async (n: number) => {
    const deadline = Date.now() + 5_000;
    while (held.length < n) {
      if (Date.now() > deadline) throw new Error(`the provider holds ${held.length} requests, not ${n}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { url, held, sessions, connections, until };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function transport(http2On = true) {
  const t = new ProviderTransport({ http2: http2On, ca: LOOPBACK_TLS.cert() });
  closers.push(async () => t.close());
  return t;
}

describe('the provider transport', () => {
  it('calls an origin that speaks HTTP/2 as streams of shared connections, as many on each as the origin allows', async () => {
    const origin = await provider('h2', 5);
    const t = transport();
    const answers = Array.from({ length: 12 }, (_, i) =>
      t.fetch(`${origin.url}/v1/chat/completions?n=${i}`, {
        method: 'POST',
        // A connection header is HTTP/1.1's: it must not reach an HTTP/2 origin, which would refuse the stream.
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-test', Connection: 'keep-alive' },
        body: JSON.stringify({ n: i }),
        signal: new AbortController().signal,
      }),
    );
    await origin.until(12);
    expect(origin.held.every((h) => h.version === '2.0')).toBe(true);
    expect(origin.sessions).toHaveLength(3);
    expect(t.connections().open).toEqual({ h2: { connections: 3, requests: 12 }, 'http/1.1': { connections: 0, requests: 0 } });
    for (const h of origin.held) h.answer(200, JSON.stringify({ echo: h.body, path: h.path }));
    const read = await Promise.all(
      answers.map(async (a) => {
        const response = await a;
        return { status: response.status, auth: response.headers.get('x-seen-auth'), body: (await response.json()) as { echo: string } };
      }),
    );
    expect(read[7]).toEqual({ status: 200, auth: 'Bearer sk-test', body: { echo: '{"n":7}', path: '/v1/chat/completions?n=7' } });
    expect(new Set(read.map((r) => r.body.echo)).size).toBe(12);
    // Answered and read, the streams close (just after the last read); the connections stay for the next calls.
    await vi.waitFor(() => expect(t.connections().open.h2).toEqual({ connections: 3, requests: 0 }), { timeout: 5_000 });
  });

  it('calls an origin whose handshake chooses HTTP/1.1 over HTTP/1.1, and remembers it', async () => {
    const origin = await provider('http/1.1');
    const t = transport();
    for (const n of [1, 2]) {
      const answer = t.fetch(`${origin.url}/v1/x`, { method: 'POST', headers: {}, body: `b${n}`, signal: new AbortController().signal });
      await origin.until(n);
      origin.held[n - 1]?.answer(201, '{"ok":true}');
      const response = await answer;
      expect([response.status, await response.text()]).toEqual([201, '{"ok":true}']);
    }
    expect(origin.held.map((h) => [h.version, h.body])).toEqual([
      ['1.1', 'b1'],
      ['1.1', 'b2'],
    ]);
    // One connection learnt the protocol, one kept-alive connection carried both calls: the second call did
    // not ask again.
    expect(origin.connections.count).toBe(2);
  });

  it('gives a stopped call’s room on its connection back', async () => {
    const origin = await provider('h2', 1);
    const t = transport();
    const stop = new AbortController();
    const first = t.fetch(`${origin.url}/first`, { method: 'POST', headers: {}, body: '1', signal: stop.signal });
    await origin.until(1);
    stop.abort(new Error('step cancelled'));
    await expect(first).rejects.toThrow();
    const second = t.fetch(`${origin.url}/second`, { method: 'POST', headers: {}, body: '2', signal: new AbortController().signal });
    await origin.until(2);
    origin.held[1]?.answer(200, '{}');
    expect((await second).status).toBe(200);
    // The one connection's single stream was free again: no second connection was needed.
    expect(origin.sessions).toHaveLength(1);
  });

  it('fails a call whose stream the origin ends without an answer, rather than leaving it waiting', async () => {
    const origin = await provider('h2');
    const t = transport();
    const call = t.fetch(`${origin.url}/v1/x`, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal });
    await origin.until(1);
    origin.held[0]?.reset();
    await expect(call).rejects.toThrow('the provider closed the stream before answering (HTTP/2 code 0)');
  });

  it('opens a new connection once the origin has said GOAWAY on the old one', async () => {
    const origin = await provider('h2');
    const t = transport();
    const first = t.fetch(`${origin.url}/a`, { method: 'GET', headers: {}, signal: new AbortController().signal });
    await origin.until(1);
    origin.held[0]?.answer(204);
    const answered = await first;
    expect([answered.status, answered.body]).toEqual([204, null]);
    origin.sessions[0]?.goaway();
    await new Promise((r) => setTimeout(r, 100));
    const second = t.fetch(`${origin.url}/b`, { method: 'GET', headers: {}, signal: new AbortController().signal });
    await origin.until(2);
    origin.held[1]?.answer(200, '{"again":1}');
    expect(await (await second).json()).toEqual({ again: 1 });
    expect(origin.sessions).toHaveLength(2);
    expect(t.connections().http2Ended).toEqual({ idle: 0, goaway: 1, ping: 0, error: 0 });
  });

  it('lets a call in flight finish on a connection the origin said GOAWAY on, while new calls take a new one', async () => {
    const origin = await provider('h2');
    const t = transport();
    const first = t.fetch(`${origin.url}/a`, { method: 'GET', headers: {}, signal: new AbortController().signal });
    await origin.until(1);
    // The origin will still answer stream 1, the first call's, and takes no new stream on this connection.
    origin.sessions[0]?.goaway(http2.constants.NGHTTP2_NO_ERROR, 1);
    await new Promise((r) => setTimeout(r, 100));
    const second = t.fetch(`${origin.url}/b`, { method: 'GET', headers: {}, signal: new AbortController().signal });
    await origin.until(2);
    expect(origin.sessions).toHaveLength(2);
    // The draining connection still counts, with its call, until that call has been answered.
    expect(t.connections().open.h2).toEqual({ connections: 2, requests: 2 });
    origin.held[0]?.answer(200, '{"first":1}');
    expect(await (await first).json()).toEqual({ first: 1 });
    await vi.waitFor(() => expect(t.connections().open.h2).toEqual({ connections: 1, requests: 1 }), { timeout: 5_000 });
    origin.held[1]?.answer(200, '{"second":2}');
    expect(await (await second).json()).toEqual({ second: 2 });
  });

  it('keeps HTTP/1.1 for every origin when HTTP/2 is turned off', async () => {
    const origin = await provider('h2');
    const t = transport(false);
    const answer = t.fetch(`${origin.url}/v1/x`, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal });
    await origin.until(1);
    origin.held[0]?.answer(200, '{}');
    expect((await answer).status).toBe(200);
    expect(origin.held[0]?.version).toBe('1.1');
    expect(origin.sessions).toHaveLength(0);
  });

  it('fails the calls waiting on an origin that chose HTTP/2 but never sent its settings, and tries a new connection for the next', async () => {
    const sockets: Socket[] = [];
    const server = tls.createServer({ cert: LOOPBACK_TLS.cert(), key: LOOPBACK_TLS.key(), ALPNProtocols: ['h2'] }, (socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    });
    const t = new ProviderTransport({ http2: true, ca: LOOPBACK_TLS.cert(), http2HandshakeMs: 300 });
    closers.push(async () => t.close());
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`;
    const call = () => t.fetch(url, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal });
    const started = Date.now();
    await expect(Promise.all([call(), call()])).rejects.toThrow('sent no HTTP/2 settings within 300 ms');
    await expect(call()).rejects.toThrow('sent no HTTP/2 settings within 300 ms');
    expect(Date.now() - started).toBeLessThan(2_000);
    // The two calls at once waited on one connection; the later call opened its own.
    expect(sockets).toHaveLength(2);
  });

  it('destroys a connection whose origin stops answering pings, failing its calls, and opens another for the next call', async () => {
    const origin = await provider('h2');
    const proxy = await blackHoleProxy(Number(new URL(origin.url).port));
    const t = new ProviderTransport({ http2: true, ca: LOOPBACK_TLS.cert(), http2PingMs: 200 });
    closers.push(async () => t.close());
    const call = (path: string) =>
      t.fetch(`${proxy.url}${path}`, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal });
    const first = call('/first');
    await origin.until(1);
    // Answered pings keep a connection whose calls wait long.
    await new Promise((r) => setTimeout(r, 700));
    expect(t.connections().open.h2).toEqual({ connections: 1, requests: 1 });
    proxy.silence();
    const started = Date.now();
    await expect(first).rejects.toThrow('did not answer an HTTP/2 ping within 200 ms');
    // Two pings' time (400 ms) and what a loaded machine adds; without the pings it would wait forever.
    expect(Date.now() - started).toBeLessThan(3_000);
    const second = call('/second');
    await origin.until(2);
    origin.held[1]?.answer(200, '{"fresh":true}');
    expect(await (await second).json()).toEqual({ fresh: true });
    expect(proxy.connections()).toBe(2);
    expect(t.connections().http2Ended).toEqual({ idle: 0, goaway: 0, ping: 1, error: 0 });
  });

  it('does not take a connection for dead when this process stalled while the ping’s answer waited to be read', async () => {
    // The origin in a process of its own, as a provider is, so that it answers pings while this one stalls.
    const origin = await childOrigin(3_000);
    const t = new ProviderTransport({ http2: true, ca: LOOPBACK_TLS.cert(), http2PingMs: 100 });
    closers.push(async () => t.close());
    const call = t.fetch(`${origin}/a`, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal });
    await vi.waitFor(() => expect(t.connections().open.h2.requests).toBe(1), { timeout: 5_000 });
    // Five stalls of 400 ms one after another (a long collection, a busy loop): a ping goes out between two of
    // them and is answered during the next, and its timer comes due again before the loop has read the answer.
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
      const until = Date.now() + 400;
      while (Date.now() < until);
    }
    expect(await (await call).json()).toEqual({ alive: true });
    expect(t.connections().http2Ended.ping).toBe(0);
  });

  it('reads its settings from the environment, refusing a ping interval that is not a whole number of milliseconds', () => {
    expect(transportOptionsFromEnv({})).toEqual({ http2: true });
    expect(transportOptionsFromEnv({ ATELIER_PROVIDER_HTTP2: 'off', ATELIER_PROVIDER_HTTP2_PING_MS: '0' })).toEqual({
      http2: false,
      http2PingMs: 0,
    });
    expect(transportOptionsFromEnv({ ATELIER_PROVIDER_HTTP2_PING_MS: ' 20000 ' })).toEqual({ http2: true, http2PingMs: 20_000 });
    for (const bad of ['15s', '-1', '2.5'])
      expect(() => transportOptionsFromEnv({ ATELIER_PROVIDER_HTTP2_PING_MS: bad })).toThrow(
        /ATELIER_PROVIDER_HTTP2_PING_MS must be a whole number/,
      );
  });

  it('shows its connections in the worker’s metrics', async () => {
    const origin = await provider('h2');
    const t = transport();
    const registry = new Registry();
    registerProviderConnectionMetrics(registry, () => t.connections());
    const waiting = [1, 2].map((n) => t.fetch(`${origin.url}/${n}`, { method: 'GET', headers: {}, signal: new AbortController().signal }));
    await origin.until(2);
    const text = await registry.metrics();
    expect(text).toContain('atelier_provider_connections{protocol="h2"} 1');
    expect(text).toContain('atelier_provider_requests_in_flight{protocol="h2"} 2');
    expect(text).toContain('atelier_provider_requests_in_flight{protocol="http/1.1"} 0');
    expect(text).toContain('atelier_provider_http2_connections_ended_total{reason="ping"} 0');
    for (const h of origin.held) h.answer(204);
    await Promise.all(waiting);
  });
});

/**
 * A TCP relay to a loopback origin whose `silence` makes every connection open through it drop what either
 * side sends without closing, as a connection whose peer vanished behind a NAT does; later connections relay.
 */
async function blackHoleProxy(port: number) {
  const relayed: Array<{ silent: boolean; sockets: Socket[] }> = [];
  const server = net.createServer((inbound) => {
    const outbound = net.connect(port, '127.0.0.1');
    const pair = { silent: false, sockets: [inbound, outbound] };
    relayed.push(pair);
    inbound.on('data', (chunk) => pair.silent || outbound.write(chunk));
    outbound.on('data', (chunk) => pair.silent || inbound.write(chunk));
    for (const [a, b] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    for (const pair of relayed) for (const socket of pair.sockets) socket.destroy();
    await new Promise((r) => server.close(r));
  });
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    silence: () => {
      for (const pair of relayed) pair.silent = true;
    },
    connections: () => relayed.length,
  };
}

/** An HTTP/2 origin over TLS in a child process that answers every request `answerMs` after it came; its URL. */
async function childOrigin(answerMs: number): Promise<string> {
  const code = `
    const http2 = require('node:http2');
    const fs = require('node:fs');
    const tls = { cert: fs.readFileSync(process.env.CERT), key: fs.readFileSync(process.env.KEY) };
    const server = http2.createSecureServer(tls, (req, res) => {
      req.resume();
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"alive":true}');
      }, ${answerMs});
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  `;
  const child = spawn(process.execPath, ['-e', code], {
    env: { ...process.env, CERT: LOOPBACK_TLS.certPath, KEY: LOOPBACK_TLS.keyPath },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  closers.push(async () => {
    child.kill();
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return `https://localhost:${line.toString().trim()}`;
}
