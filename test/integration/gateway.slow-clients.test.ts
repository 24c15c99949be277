import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, get } from 'node:http';
import { type Socket, connect } from 'node:net';
import { type ApiServer, type ConnectionLimits, connectionLimits, startApiServer } from '@atelier/api';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * Slow and hoarding clients, over real sockets, against a gateway with short limits. The harness has no
 * worker, so a run stays queued and its event stream stays open for as long as the test reads it.
 */
// Four acceptors: connections come in through the listening socket's copies too (http/acceptors.ts), under the same limits.
const LIMITS: ConnectionLimits = {
  keepAliveMs: 6_000,
  headersTimeoutMs: 2_000,
  requestTimeoutMs: 3_000,
  maxConnectionsPerAddress: 4,
  acceptors: 4,
};

let h: Harness;
let user: TestUser;
let gateway: ApiServer;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
  gateway = await startApiServer(h.gatewayServices({ sseHeartbeatMs: 250 }), 0, '127.0.0.1', LIMITS);
});
afterAll(async () => {
  await gateway?.close();
  await h?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Trickle {
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
  /** Bytes of `text` the client had sent by then. */
  sent: number;
  /** What the server answered before closing. */
  answer: string;
}

/** Connects, sends `head` at once, then `text` `chunk` bytes every `everyMs`, until the server closes the connection. */
function trickle(text: string, opts: { head?: string; chunk?: number; everyMs: number }): Promise<Trickle> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(gateway.port, '127.0.0.1');
    let sent = 0;
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      if (opts.head) socket.write(opts.head);
      timer = setInterval(() => {
        if (sent >= text.length || socket.destroyed) return;
        const next = text.slice(sent, sent + (opts.chunk ?? 1));
        sent += next.length;
        socket.write(next);
      }, opts.everyMs);
    });
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('error', () => {}); // a reset after the server gives up is expected; 'close' follows
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, sent, answer });
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the gateway kept the connection open for 15 s (sent ${sent} bytes)`));
    }, 15_000);
  });
}

/** Opens a connection and sends one kept-alive request on it, leaving it open and idle. */
function idleConnection(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(gateway.port, '127.0.0.1');
    socket.once('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    socket.once('data', (d) => (d.toString().startsWith('HTTP/1.1 200') ? resolve(socket) : reject(new Error(d.toString()))));
    socket.once('error', reject);
  });
}

/** Opens a connection; resolves with what the server sent before closing it, or 'open' if it is still open after `ms`. */
function refusedWithin(ms: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(gateway.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(`closed:${answer}`));
    setTimeout(() => {
      socket.destroy();
      resolve('open');
    }, ms);
  });
}

function getOver(agent: Agent, path: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = get(`${gateway.url}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
  });
}

describe('slow clients', () => {
  it('reads the limits from the environment, with defaults that cut slow clients well before a minute', () => {
    expect(connectionLimits({})).toEqual({
      keepAliveMs: 65_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnectionsPerAddress: 256,
      acceptors: 8,
    });
    expect(
      connectionLimits({
        ATELIER_HTTP_KEEP_ALIVE_MS: '90000',
        ATELIER_HTTP_HEADERS_TIMEOUT_MS: '5000',
        ATELIER_HTTP_REQUEST_TIMEOUT_MS: '20000',
        ATELIER_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
        ATELIER_HTTP_ACCEPTORS: '1',
      }),
    ).toEqual({ keepAliveMs: 90_000, headersTimeoutMs: 5_000, requestTimeoutMs: 20_000, maxConnectionsPerAddress: 0, acceptors: 1 });
    expect(connectionLimits({ ATELIER_HTTP_ACCEPTORS: '1000' }).acceptors).toBe(64);
    expect(connectionLimits({ ATELIER_HTTP_ACCEPTORS: '0' }).acceptors).toBe(8);
    // Unusable values keep the default; a request timeout below the headers timeout is raised to it.
    expect(connectionLimits({ ATELIER_HTTP_KEEP_ALIVE_MS: 'soon', ATELIER_HTTP_HEADERS_TIMEOUT_MS: '-1' })).toMatchObject({
      keepAliveMs: 65_000,
      headersTimeoutMs: 10_000,
    });
    expect(connectionLimits({ ATELIER_HTTP_HEADERS_TIMEOUT_MS: '40000' }).requestTimeoutMs).toBe(40_000);
  });

  it('cuts a client that sends its headers one byte a second once the header timeout has passed, with a 408', async () => {
    const headers = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: a-very-slow-client-indeed\r\n\r\n';
    const cut = await trickle(headers, { everyMs: 1_000 });
    // Each byte arriving does not restart the clock; the check runs every half second here.
    expect(cut.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 100);
    expect(cut.closedAfterMs).toBeLessThan(LIMITS.headersTimeoutMs + 2_000);
    expect(cut.sent).toBeLessThan(headers.length);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a client that sends its headers and then its body too slowly once the request timeout has passed', async () => {
    const body = JSON.stringify({ intake: { topic: 'x'.repeat(200) } });
    const head = [
      'POST /v1/workflows/dry-run HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${user.token}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      '',
    ].join('\r\n');
    const cut = await trickle(body, { head, chunk: 4, everyMs: 250 });
    expect(cut.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(cut.closedAfterMs).toBeLessThan(LIMITS.requestTimeoutMs + 2_000);
    expect(cut.sent).toBeLessThan(body.length);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses connections from one address past the cap, and accepts again once one closes', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnectionsPerAddress }, idleConnection));
    try {
      expect(await refusedWithin(1_000)).toBe('closed:');
      await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
      const first = held.shift()!;
      await new Promise<void>((resolve) => {
        first.once('close', () => resolve());
        first.destroy();
      });
      await sleep(100); // the server hears the close a moment after the client
      const res = await fetch(`${gateway.url}/healthz`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it('keeps an idle kept-alive connection past the header timeout: between requests only the idle timeout applies', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await getOver(agent, '/healthz')).toEqual({ status: 200, reused: false });
      await sleep(LIMITS.headersTimeoutMs + 1_500);
      expect(await getOver(agent, '/healthz')).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('keeps a run event stream open well past the request timeout: it bounds receiving the request, not the answer', async () => {
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'a long stream' } },
    });
    expect(created.status).toBe(201);
    const controller = new AbortController();
    const res = await fetch(`${gateway.url}/v1/runs/${created.body.id}/events`, {
      headers: { authorization: `Bearer ${user.token}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const started = Date.now();
    const heartbeatsAt: number[] = [];
    let text = '';
    try {
      while (Date.now() - started < LIMITS.requestTimeoutMs + 2_000) {
        const { value, done } = await reader.read();
        expect(done).toBe(false);
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        if (chunk.startsWith(':')) heartbeatsAt.push(Date.now() - started);
      }
    } finally {
      controller.abort();
    }
    expect(text).toContain('event: snapshot');
    expect(heartbeatsAt.filter((at) => at > LIMITS.requestTimeoutMs + 1_000).length).toBeGreaterThan(0);
  });
});
