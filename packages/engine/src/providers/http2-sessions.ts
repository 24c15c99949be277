import http2 from 'node:http2';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { untilAborted } from './delay.js';

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
  /** Connections ended so far, by why: counted for the worker's metrics. */
  readonly ended: Record<SessionEnd, number> = { idle: 0, goaway: 0, ping: 0, error: 0 };

  constructor(
    /** What a handshake trusts, when not the system's roots (a loopback provider's certificate in tests). */
    private readonly secureContext?: tls.SecureContext,
    timing: Partial<Timing> = {},
  ) {
    this.timing = { idleMs: IDLE_MS, handshakeMs: HANDSHAKE_MS, pingMs: PING_MS, ...timing };
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
      known = new OriginSessions(
        origin,
        this.secureContext,
        this.timing,
        () => this.origins.set(key, 'http/1.1'),
        (why) => this.ended[why]++,
      );
      this.origins.set(key, known);
    }
    return known.slot(signal);
  }

  /** The connections open now, and the streams they carry. */
  inUse(): { connections: number; streams: number } {
    let connections = 0;
    let streams = 0;
    for (const known of this.origins.values()) {
      if (known === 'http/1.1') continue;
      const counted = known.inUse();
      connections += counted.connections;
      streams += counted.streams;
    }
    return { connections, streams };
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
  /**
   * How often a connection with streams open is pinged; one that has not answered by the next ping is taken
   * for dead and destroyed, failing its streams (their calls are tried again on another connection). 0: never.
   */
  pingMs: number;
}

const IDLE_MS = 30_000;
const HANDSHAKE_MS = 30_000;
/**
 * Calls wait minutes on a connection that carries nothing meanwhile, and a connection whose peer vanished
 * without a word (a NAT or load balancer dropping it) would hold every stream on it, and take new ones, until
 * each call's own timeout: a ping unanswered within 15 to 30 s ends it.
 */
export const PING_MS = 15_000;

/** Why a connection left the pool: unused, the origin's GOAWAY, a ping unanswered, or a failure or close. */
export type SessionEnd = 'idle' | 'goaway' | 'ping' | 'error';

interface Pooled {
  session: http2.ClientHttp2Session;
  streams: number;
  /** Set once the origin said GOAWAY or the connection failed: no new stream goes on it. */
  draining: boolean;
  idle?: NodeJS.Timeout;
  /** Pings the connection while streams are open (`Timing.pingMs`). */
  liveness?: NodeJS.Timeout;
}

/** One origin's connections: filled up to each one's stream limit, another opened (one at a time) when all are full. */
class OriginSessions {
  private readonly pool: Pooled[] = [];
  /** Every connection not yet closed: the pool's, and those draining their last streams after leaving it. */
  private readonly live = new Set<Pooled>();
  private opening: Promise<Pooled | undefined> | undefined;
  private closed = false;

  constructor(
    private readonly origin: URL,
    private readonly secureContext: tls.SecureContext | undefined,
    private readonly timing: Timing,
    private readonly speaksHttp1Only: () => void,
    private readonly onEnd: (why: SessionEnd) => void,
  ) {}

  inUse(): { connections: number; streams: number } {
    let streams = 0;
    for (const p of this.live) streams += p.streams;
    return { connections: this.live.size, streams };
  }

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
    this.pool.splice(0);
    // Draining ones too: they would otherwise stay open until their last streams end.
    for (const p of this.live) {
      p.draining = true;
      clearTimeout(p.idle);
      clearInterval(p.liveness);
      p.session.close();
    }
  }

  private take(p: Pooled): Slot {
    clearTimeout(p.idle);
    p.streams++;
    if (!p.liveness && this.timing.pingMs > 0) this.watch(p);
    let released = false;
    return {
      session: p.session,
      release: () => {
        if (released) return;
        released = true;
        p.streams--;
        if (p.streams > 0) return;
        clearInterval(p.liveness);
        p.liveness = undefined;
        if (!p.draining) p.idle = setTimeout(() => this.retire(p, 'idle'), this.timing.idleMs).unref();
      },
    };
  }

  /**
   * Pings `p` every `pingMs` while it carries streams; a ping still unanswered at the next one destroys it.
   * Its streams then fail with the reason, and their calls' attempts are tried again.
   */
  private watch(p: Pooled): void {
    let answered = true;
    p.liveness = setInterval(() => {
      if (!answered) {
        // Looked at again once the loop has read what sockets hold: after a stall of this process (a long
        // collection), the answer may be waiting there, read only after this timer.
        setImmediate(() => {
          if (answered || p.session.destroyed) return;
          this.retire(p, 'ping');
          p.session.destroy(new Error(`${this.origin.host} did not answer an HTTP/2 ping within ${this.timing.pingMs} ms`));
        });
        return;
      }
      answered = false;
      try {
        // A ping the session can no longer send (closing, or too many unanswered) is left to its own end.
        p.session.ping((err) => {
          if (!err) answered = true;
        });
      } catch {
        answered = true;
      }
    }, this.timing.pingMs).unref();
  }

  /**
   * Takes `p` out of the pool: no new stream goes on it; `idle` and `goaway` close it once its streams end
   * (pinged meanwhile, as before).
   */
  private retire(p: Pooled, why: SessionEnd): void {
    if (!p.draining) this.onEnd(why);
    p.draining = true;
    clearTimeout(p.idle);
    const close = why === 'idle' || why === 'goaway';
    if (!close) {
      clearInterval(p.liveness);
      p.liveness = undefined;
    }
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
    session.on('goaway', () => this.retire(pooled, 'goaway'));
    // A failed connection fails its open streams, which report it to their calls; the pool only forgets it.
    session.on('close', () => {
      this.live.delete(pooled);
      this.retire(pooled, 'error');
    });
    session.on('error', () => this.retire(pooled, 'error'));
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
    if (session.closed || session.destroyed) throw new Error(`${this.origin.host} closed the HTTP/2 connection as it opened`);
    this.pool.push(pooled);
    this.live.add(pooled);
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
