import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/** What a provider call sends: the subset of fetch's RequestInit the adapters use. */
export interface ProviderRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | FormData;
  signal: AbortSignal;
}

// Kept-alive sockets per origin, as fetch keeps them: a provider's calls reuse their connections.
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A provider call over node:http, answered as a fetch Response. A worker holds thousands of model calls
 * open at once while providers think; measured with 2,000 requests held open, fetch kept about 24 KB of
 * heap and 40 KB resident per request, node:http about 7 and 20 (docs/performance-log.md, 0fb41ac).
 * The answer becomes a web Response only once it arrives, so the adapters read it as before.
 */
export async function providerFetch(url: string, request: ProviderRequest): Promise<Response> {
  const target = new URL(url);
  const agent = target.protocol === 'https:' ? agents['https:'] : target.protocol === 'http:' ? agents['http:'] : undefined;
  if (!agent) throw new TypeError(`a provider URL must be http or https, not ${target.protocol}`);
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
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (target.protocol === 'https:' ? https : http).request(
      target,
      { method: request.method, headers, agent, signal: request.signal },
      (incoming) => {
        const status = incoming.statusCode ?? 502;
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value === undefined) continue;
          for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(name, one);
        }
        if (NULL_BODY_STATUSES.has(status)) {
          incoming.resume();
          resolve(new Response(null, { status, headers: answerHeaders }));
          return;
        }
        resolve(new Response(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, { status, headers: answerHeaders }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
