import type { Server } from 'node:net';

/**
 * How long the gateway waits on a client, and how many connections one address may hold: the settings
 * that keep slow or hoarding clients (slowloris, slow bodies) from pinning sockets and memory.
 *
 * Node (20) measures both timeouts over a request being received, not over the answer: a connection is
 * watched from its first byte (or from being opened) until the request's last byte arrives, so a long
 * answer such as the run event stream is not cut, and an idle kept-alive connection is watched only by
 * keepAliveTimeout.
 */
export interface ConnectionLimits {
  /** Idle time allowed between requests on a kept-alive connection (ATELIER_HTTP_KEEP_ALIVE_MS). */
  keepAliveMs: number;
  /** Time allowed to receive a request's headers (ATELIER_HTTP_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** Time allowed to receive a whole request, headers and body (ATELIER_HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Open connections allowed from one client address; 0 allows any number (ATELIER_HTTP_MAX_CONNECTIONS_PER_ADDRESS). */
  maxConnectionsPerAddress: number;
  /** New connections the gateway may take in one turn of its event loop (ATELIER_HTTP_ACCEPTORS; acceptors.ts). */
  acceptors: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  // Above a load balancer's idle timeout (60 s is common), so the balancer, not the gateway, closes idle
  // connections, and clients keep theirs between bursts instead of setting up new ones on a busy loop.
  keepAliveMs: 65_000,
  // Real clients send their headers in one packet; 10 s leaves room for a congested mobile link.
  headersTimeoutMs: 10_000,
  // The largest body (2 MB, input-guard.ts) takes about 16 s at 1 Mbit/s.
  requestTimeoutMs: 30_000,
  // Far above what one client or proxy keeps open (browsers keep 6 per host, the bench 256 at most).
  maxConnectionsPerAddress: 256,
  // Node takes one per turn (acceptors.ts); 8 let 64 clients connecting at once into a busy gateway within
  // a few turns, while a flood of connections still waits its turn rather than swamping the loop.
  acceptors: 8,
};

/** Each acceptor is a descriptor the loop polls; past a few dozen they only add wake-ups. */
const MAX_ACCEPTORS = 64;

function setting(env: NodeJS.ProcessEnv, name: string, fallback: number, allowZero = false): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const given = Number(raw);
  return Number.isInteger(given) && (given > 0 || (allowZero && given === 0)) ? given : fallback;
}

/** The limits from the environment; a missing or unusable value keeps its default. */
export function connectionLimits(env: NodeJS.ProcessEnv = process.env): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  const headersTimeoutMs = setting(env, 'ATELIER_HTTP_HEADERS_TIMEOUT_MS', d.headersTimeoutMs);
  return {
    keepAliveMs: setting(env, 'ATELIER_HTTP_KEEP_ALIVE_MS', d.keepAliveMs),
    headersTimeoutMs,
    // Node refuses a headers timeout longer than the request timeout; the headers are part of the request.
    requestTimeoutMs: Math.max(headersTimeoutMs, setting(env, 'ATELIER_HTTP_REQUEST_TIMEOUT_MS', d.requestTimeoutMs)),
    maxConnectionsPerAddress: setting(env, 'ATELIER_HTTP_MAX_CONNECTIONS_PER_ADDRESS', d.maxConnectionsPerAddress, true),
    acceptors: Math.min(MAX_ACCEPTORS, setting(env, 'ATELIER_HTTP_ACCEPTORS', d.acceptors)),
  };
}

/** How long an idle client connection stays open (ATELIER_HTTP_KEEP_ALIVE_MS, 65 s by default). */
export const keepAliveMs = (env: NodeJS.ProcessEnv = process.env): number => connectionLimits(env).keepAliveMs;

/**
 * The options for node:http's createServer. Node looks for expired requests only every
 * connectionsCheckingInterval (30 s by default, which would let a slow client stay up to 30 s past its
 * timeout); a quarter of the shorter timeout keeps the overshoot small, and the sweep itself only walks
 * the connections still receiving a request.
 */
export function httpServerOptions(limits: ConnectionLimits) {
  return {
    keepAliveTimeout: limits.keepAliveMs,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(5_000, Math.max(100, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4))),
  };
}

/**
 * Destroys each connection past `max` open ones from the same address, before it is read. A client that
 * opens hundreds of connections at once is hoarding them, not using them. `onRefused` hears the first
 * refusal of each burst (until the address drops below the cap again), so a flood logs one line, not one
 * per socket.
 */
export function capConnectionsPerAddress(server: Server, max: number, onRefused: (address: string) => void = () => {}): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  const refusing = new Set<string>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      if (!refusing.has(address)) {
        refusing.add(address);
        onRefused(address);
      }
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      if (left < max) refusing.delete(address);
    });
  });
}
