import http2 from 'node:http2';
import { isIP } from 'node:net';
import tls from 'node:tls';

/**
 * The HTTP/2 connections a worker keeps to each https provider origin that speaks it. Over HTTP/1.1 each call
 * waiting on a provider holds a TLS connection of its own (about 67 KB resident with its buffers); over
 * HTTP/2 the calls are streams of a few connections (about 12 KB each), as many per connection as the
 * provider's SETTINGS allow (docs/performance-log.md, 2026-11-29). Which protocol an origin speaks is
 * learnt once, from the TLS handshake (ALPN): an origin that answers `http/1.1` is called over HTTP/1.1 from
 * then on, and `undefined` tells the caller so.
 */
export class Http2Origins {
  private readonly origins = new Map<string, OriginSessions | 'http/1.1'>();

  private readonly timing: Timing;

  constructor(
    /** What a handshake trusts, when not the system's roots (a loopback provider's certificate in tests). */
    private readonly secureContext?: tls.SecureContext,
    timing: Partial<Timing> = {},
  ) {
    this.timing = { idleMs: IDLE_MS, handshakeMs: HANDSHAKE_MS, ...timing };
  }

  /**
   * Room for one stream to `origin` (`https://host[:port]`), or undefined when the origin speaks HTTP/1.1 only.
   * A call stopped while a connection opens gives up its wait; the connection goes on opening for the others.
   */
  async session(origin: URL, signal: AbortSignal): Promise<Slot | undefined> {
    const key = origin.origin;
    let known = this.origins.get(key);
    if (known === 'http/1.1') return undefined;
    if (!known) {
      known = new OriginSessions(origin, this.secureContext, this.timing, () => this.origins.set(key, 'http/1.1'));
      this.origins.set(key, known);
    }
    return known.slot(signal);
  }

  /** Closes every connection (a worker stopping, a test's end). */
  close(): void {
    for (const known of this.origins.values()) if (known !== 'http/1.1') known.close();
    this.origins.clear();
  }
}

/** A connection with room for one more stream, taken: `release` when the stream has closed. */
export interface Slot {
  session: http2.ClientHttp2Session;
  release: () => void;
}

interface Timing {
  /** How long a connection with no stream open is kept. */
  idleMs: number;
  /**
   * How long a connection's TLS handshake, and then the origin's HTTP/2 settings, may take before the calls
   * waiting on it fail (and are tried again as after any failed connection).
   */
  handshakeMs: number;
}

const IDLE_MS = 30_000;
const HANDSHAKE_MS = 30_000;

interface Pooled {
  session: http2.ClientHttp2Session;
  streams: number;
  /** Set once the origin said GOAWAY or the connection failed: no new stream goes on it. */
  draining: boolean;
  idle?: NodeJS.Timeout;
}

/** One origin's connections: filled up to each one's stream limit, another opened (one at a time) when all are full. */
class OriginSessions {
  private readonly pool: Pooled[] = [];
  private opening: Promise<Pooled | undefined> | undefined;
  private closed = false;

  constructor(
    private readonly origin: URL,
    private readonly secureContext: tls.SecureContext | undefined,
    private readonly timing: Timing,
    private readonly speaksHttp1Only: () => void,
  ) {}

  async slot(signal: AbortSignal): Promise<Slot | undefined> {
    for (;;) {
      signal.throwIfAborted();
      const open = this.pool.find((p) => usable(p) && p.streams < limitOf(p.session));
      if (open) return this.take(open);
      this.opening ??= this.open().finally(() => {
        this.opening = undefined;
      });
      const opened = await untilAborted(this.opening, signal);
      if (!opened) return undefined;
    }
  }

  close(): void {
    this.closed = true;
    for (const p of this.pool.splice(0)) {
      clearTimeout(p.idle);
      p.session.close();
    }
  }

  private take(p: Pooled): Slot {
    clearTimeout(p.idle);
    p.streams++;
    let released = false;
    return {
      session: p.session,
      release: () => {
        if (released) return;
        released = true;
        p.streams--;
        if (p.streams === 0 && !p.draining) p.idle = setTimeout(() => this.retire(p, true), this.timing.idleMs).unref();
      },
    };
  }

  private retire(p: Pooled, close: boolean): void {
    p.draining = true;
    clearTimeout(p.idle);
    const at = this.pool.indexOf(p);
    if (at >= 0) this.pool.splice(at, 1);
    // Streams in flight finish on a closing session; a destroyed one has already failed them.
    if (close && !p.session.closed && !p.session.destroyed) p.session.close();
  }

  /** Opens one connection; resolves undefined (and marks the origin) when the handshake chose HTTP/1.1. */
  private async open(): Promise<Pooled | undefined> {
    const socket = await handshake(this.origin, this.secureContext, this.timing.handshakeMs);
    if (socket.alpnProtocol !== 'h2') {
      socket.destroy();
      this.speaksHttp1Only();
      return undefined;
    }
    const session = http2.connect(this.origin, { createConnection: () => socket });
    // The process's life is the worker's; a connection kept for the next call must not hold it open.
    session.unref();
    const pooled: Pooled = { session, streams: 0, draining: false };
    session.on('goaway', () => this.retire(pooled, true));
    session.on('close', () => this.retire(pooled, false));
    // A failed connection fails its open streams, which report it to their calls; the pool only forgets it.
    session.on('error', () => this.retire(pooled, false));
    // The origin's SETTINGS say how many streams it takes; one that never sends them is given up on.
    const { handshakeMs } = this.timing;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => failed(new Error(`${this.origin.host} sent no HTTP/2 settings within ${handshakeMs} ms`)),
        handshakeMs,
      );
      const settled = () => {
        clearTimeout(timer);
        session.off('error', failed);
        resolve();
      };
      const failed = (err: Error) => {
        clearTimeout(timer);
        session.off('remoteSettings', settled);
        session.destroy();
        reject(err);
      };
      session.once('remoteSettings', settled);
      session.once('error', failed);
    });
    if (this.closed) {
      session.close();
      return undefined;
    }
    this.pool.push(pooled);
    return pooled;
  }
}

/** Whether a connection takes new streams: not draining, and not closing or closed by anyone (Node marks it at once). */
function usable(p: Pooled): boolean {
  return !p.draining && !p.session.closed && !p.session.destroyed;
}

/**
 * A session's stream limit as the origin's SETTINGS set it (a session joins the pool only once they came);
 * 100, the least HTTP/2 recommends, should Node report none.
 */
function limitOf(session: http2.ClientHttp2Session): number {
  return session.remoteSettings.maxConcurrentStreams ?? 100;
}

/** A TLS connection to `origin` offering h2 and http/1.1; the server's choice is the socket's `alpnProtocol`. */
function handshake(origin: URL, secureContext: tls.SecureContext | undefined, handshakeMs: number): Promise<tls.TLSSocket> {
  const host = origin.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host,
      port: Number(origin.port || 443),
      ALPNProtocols: ['h2', 'http/1.1'],
      ...(secureContext ? { secureContext } : {}),
      // SNI names a host, never an address.
      ...(isIP(host) ? {} : { servername: host }),
    });
    socket.setTimeout(handshakeMs, () => socket.destroy(new Error(`TLS handshake with ${origin.host} took over ${handshakeMs} ms`)));
    socket.once('secureConnect', () => {
      socket.setTimeout(0);
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** `promise`, or the signal's reason once it aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(signal.reason);
    signal.addEventListener('abort', aborted, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}
