import http from 'node:http';
import https from 'node:https';
import type http2 from 'node:http2';
import { Readable } from 'node:stream';
import tls from 'node:tls';
import { Http2Origins, type SessionEnd, type Slot } from './http2-sessions.js';

/** What a provider call sends: the subset of fetch's RequestInit the adapters use. */
export interface ProviderRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | FormData;
  signal: AbortSignal;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export interface TransportOptions {
  /** Whether https origins that speak HTTP/2 are called over it (ATELIER_PROVIDER_HTTP2=0 keeps HTTP/1.1 for all). */
  http2: boolean;
  /** Certificates trusted beside the system's (a loopback provider's in tests; NODE_EXTRA_CA_CERTS elsewhere). */
  ca?: string | Buffer;
  /** How long opening an HTTP/2 connection may take (30 s; tests shorten it). */
  http2HandshakeMs?: number;
  /** How often an HTTP/2 connection carrying calls is pinged, and how long its answer may take (15 s; 0: never). */
  http2PingMs?: number;
}

/** A transport's connections now, by protocol, and why HTTP/2 connections have ended so far. */
export interface TransportConnections {
  open: Record<'h2' | 'http/1.1', { connections: number; requests: number }>;
  http2Ended: Readonly<Record<SessionEnd, number>>;
}

/**
 * How provider calls reach their origins. A worker holds thousands of model calls open at once while providers
 * think, so the transport is chosen for what a waiting call holds: an https origin that speaks HTTP/2 is called
 * over it (a stream of a shared connection, http2-sessions.ts); any other over node:http with kept-alive
 * sockets (measured with 2,000 requests held open, fetch kept about 24 KB of heap and 40 KB resident per
 * request, node:http about 7 and 20; docs/performance-log.md, 0fb41ac). The answer becomes a web Response
 * only once it arrives, so the adapters read it as they would fetch's.
 */
export class ProviderTransport {
  private readonly http = new http.Agent({ keepAlive: true });
  private readonly https: https.Agent;
  private readonly http2: Http2Origins | undefined;

  constructor(options: TransportOptions) {
    // One context for every connection: each would otherwise parse the whole set of roots anew (about 1 MB).
    const secureContext = options.ca ? tls.createSecureContext({ ca: [...tls.rootCertificates, options.ca] }) : undefined;
    this.https = new https.Agent({ keepAlive: true, ...(secureContext ? { secureContext } : {}) });
    this.http2 = options.http2
      ? new Http2Origins(secureContext, {
          ...(options.http2HandshakeMs ? { handshakeMs: options.http2HandshakeMs } : {}),
          ...(options.http2PingMs !== undefined ? { pingMs: options.http2PingMs } : {}),
        })
      : undefined;
  }

  connections(): TransportConnections {
    let connections = 0;
    let requests = 0;
    for (const agent of [this.http, this.https]) {
      for (const sockets of Object.values(agent.sockets)) {
        connections += sockets?.length ?? 0;
        requests += sockets?.length ?? 0;
      }
      for (const sockets of Object.values(agent.freeSockets)) connections += sockets?.length ?? 0;
    }
    const h2 = this.http2?.inUse() ?? { connections: 0, streams: 0 };
    return {
      open: { h2: { connections: h2.connections, requests: h2.streams }, 'http/1.1': { connections, requests } },
      http2Ended: this.http2?.ended ?? { idle: 0, goaway: 0, ping: 0, error: 0 },
    };
  }

  async fetch(url: string, request: ProviderRequest): Promise<Response> {
    const target = new URL(url);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      throw new TypeError(`a provider URL must be http or https, not ${target.protocol}`);
    }
    const headers = { ...request.headers };
    let body: string | Buffer | undefined;
    if (typeof request.body === 'string') body = request.body;
    else if (request.body) {
      // A multipart upload: the platform's own encoder writes the parts and names the boundary.
      const encoded = new Request(url, { method: 'POST', body: request.body });
      headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
      body = Buffer.from(await encoded.arrayBuffer());
    }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    request.signal.throwIfAborted();
    const secure = target.protocol === 'https:';
    const slot = secure && this.http2 ? await this.http2.session(target, request.signal) : undefined;
    if (slot) return overHttp2(slot, target, request, headers, body);
    return overHttp1(target, secure ? this.https : this.http, request, headers, body);
  }

  /** Closes the kept connections (a test's end; a worker's process ends with them). */
  close(): void {
    this.http.destroy();
    this.https.destroy();
    this.http2?.close();
  }
}

let shared: ProviderTransport | undefined;

/**
 * The process's transport, its kept connections shared by every call of the worker; made from the
 * environment at first use (a worker makes it as it starts, so a bad setting stops the worker there).
 */
export function processTransport(env: NodeJS.ProcessEnv = process.env): ProviderTransport {
  shared ??= new ProviderTransport(transportOptionsFromEnv(env));
  return shared;
}

/** ATELIER_PROVIDER_HTTP2 (0, false or off: HTTP/1.1 only) and ATELIER_PROVIDER_HTTP2_PING_MS (0: never). */
export function transportOptionsFromEnv(env: NodeJS.ProcessEnv): TransportOptions {
  const http2 = !['0', 'false', 'off'].includes((env.ATELIER_PROVIDER_HTTP2 ?? '').trim().toLowerCase());
  const ping = env.ATELIER_PROVIDER_HTTP2_PING_MS?.trim();
  if (!ping) return { http2 };
  const ms = Number(ping);
  if (!Number.isInteger(ms) || ms < 0)
    throw new Error(`ATELIER_PROVIDER_HTTP2_PING_MS must be a whole number of milliseconds, 0 for never (got "${ping}")`);
  return { http2, http2PingMs: ms };
}

/** A provider call through the process's transport. */
export function providerFetch(url: string, request: ProviderRequest): Promise<Response> {
  return processTransport().fetch(url, request);
}

/** The process transport's connections (the worker's metrics read them on scrape). */
export function providerConnections(): TransportConnections {
  return processTransport().connections();
}

function overHttp1(
  target: URL,
  agent: http.Agent,
  request: ProviderRequest,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (target.protocol === 'https:' ? https : http).request(
      target,
      { method: request.method, headers, agent, signal: request.signal },
      (incoming) => resolve(answered(incoming.statusCode ?? 502, headersOf(incoming.headers), incoming)),
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Headers that name a connection rather than a message: HTTP/2 refuses them. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

function overHttp2(
  slot: Slot,
  target: URL,
  request: ProviderRequest,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): Promise<Response> {
  const outgoing: http2.OutgoingHttpHeaders = { ':method': request.method, ':path': `${target.pathname}${target.search}` };
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!CONNECTION_HEADERS.has(lower)) outgoing[lower] = value;
  }
  return new Promise<Response>((resolve, reject) => {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = slot.session.request(outgoing, { signal: request.signal, endStream: body === undefined });
    } catch (err) {
      // The connection closed between being chosen and being used, or can open no more streams (its ids are
      // spent): closing it takes it out of the pool, so the call's next attempt gets another.
      slot.release();
      slot.session.close();
      reject(err);
      return;
    }
    stream.once('close', () => {
      slot.release();
      // A stream the origin ends without an error and without an answer (RST_STREAM NO_ERROR) emits only
      // this; once answered, the rejection is a no-op.
      reject(new Error(`the provider closed the stream before answering (HTTP/2 code ${stream.rstCode ?? 'none'})`));
    });
    stream.once('error', reject);
    stream.once('response', (answer) => {
      stream.off('error', reject);
      resolve(answered(Number(answer[':status'] ?? 502), headersOf(answer), stream));
    });
    if (body !== undefined) stream.end(body);
  });
}

/** An answer's headers as a web Headers, less HTTP/2's pseudo-headers (`:status`). */
function headersOf(received: http.IncomingHttpHeaders | http2.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(received)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
  }
  return headers;
}

/** A Response of the answer's status, headers and body stream (no body for the statuses that have none). */
function answered(status: number, headers: Headers, body: Readable): Response {
  if (NULL_BODY_STATUSES.has(status)) {
    // Nothing reads it, so nothing else hears its failure: a reset after the headers must not go unheard.
    body.on('error', () => undefined);
    body.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, headers });
}
