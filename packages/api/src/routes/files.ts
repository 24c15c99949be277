import { Readable } from 'node:stream';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type StoredObject, isStreamable } from '@atelier/storage';
import { validationHook } from '../errors';
import type { AppEnv } from '../services';

/**
 * GET /v1/files/{key}: artifact files, as a CDN would serve them.
 *
 * Access: no credential, like a CDN URL, but only keys under `artifacts/` are served, and those keys
 * carry the artifact id (64 random bits), so a file's URL is a capability handed out inside the
 * artifact (`content.url`) to whoever may read the artifact; it cannot be guessed or listed. Anything
 * else answers 404, never 403, so nothing is learnt about what exists.
 *
 * Local driver: the gateway streams the file with Content-Type, Content-Length, Accept-Ranges, one byte
 * range per request (206 / 416), a strong ETag (If-None-Match → 304, If-Range), Last-Modified
 * (If-Modified-Since → 304) and `Cache-Control: immutable`: a key belongs to one artifact and its bytes
 * do not change. HEAD answers the same headers without a body. GCS driver: 302 to storage.url(key),
 * the public address or a signed URL, which is not cached because a signed URL expires.
 */
const SAFE_KEY = /^artifacts\/[A-Za-z0-9][A-Za-z0-9._\/-]*$/;
const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

/** The origin that clients reach the gateway at: ATELIER_PUBLIC_URL when set, else the request's. */
export function publicOrigin(c: Context): string {
  const configured = process.env.ATELIER_PUBLIC_URL;
  return (configured ? configured : new URL(c.req.url).origin).replace(/\/+$/, '');
}

function keyOf(c: Context): string | undefined {
  const path = new URL(c.req.url).pathname;
  const raw = path.slice('/v1/files/'.length);
  let key: string;
  try {
    key = raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
  if (!SAFE_KEY.test(key) || key.split('/').some((p) => p === '' || p === '.' || p === '..')) return undefined;
  return key;
}

type Range = { start: number; end: number } | 'unsatisfiable' | undefined;

/** One `bytes=` range (first-last, first-, -suffix); several ranges or bad syntax are ignored (RFC 9110). */
export function parseRange(header: string | undefined, size: number): Range {
  if (!header) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (m[2] !== '' && end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

const etagList = (header: string) => header.split(',').map((t) => t.trim().replace(/^W\//, ''));

function notModified(c: Context, stat: StoredObject, etag: string): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined) return ifNoneMatch.trim() === '*' || etagList(ifNoneMatch).includes(etag);
  const since = c.req.header('if-modified-since');
  if (since && stat.updatedAt) {
    const t = Date.parse(since);
    return !Number.isNaN(t) && Math.floor(stat.updatedAt.getTime() / 1000) <= Math.floor(t / 1000);
  }
  return false;
}

/** If-Range: the range applies only while the validator still matches (strong ETag or exact date). */
function rangeStillValid(c: Context, stat: StoredObject, etag: string): boolean {
  const ifRange = c.req.header('if-range');
  if (!ifRange) return true;
  if (ifRange.trim().startsWith('"')) return ifRange.trim() === etag;
  return !!stat.updatedAt && Date.parse(ifRange) === Math.floor(stat.updatedAt.getTime() / 1000) * 1000;
}

async function serveFile(c: Context<AppEnv>): Promise<Response> {
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD') return c.body(null, 405, { Allow: 'GET, HEAD' });
  const key = keyOf(c);
  const notFound = () => c.json({ detail: 'file not found' }, 404);
  if (!key) return notFound();
  const storage = c.get('services').storage;

  if (!isStreamable(storage)) {
    return c.body(null, 302, { Location: await storage.url(key, publicOrigin(c)), 'Cache-Control': 'private, no-store' });
  }
  const stat = await storage.stat(key);
  if (!stat) return notFound();
  const etag = stat.etag ?? `"${stat.size.toString(16)}"`;
  const headers: Record<string, string> = {
    'Content-Type': stat.contentType,
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Cache-Control': CACHE_IMMUTABLE,
    'X-Content-Type-Options': 'nosniff',
    ...(stat.updatedAt ? { 'Last-Modified': stat.updatedAt.toUTCString() } : {}),
  };
  if (notModified(c, stat, etag)) return c.body(null, 304, headers);

  const range = rangeStillValid(c, stat, etag) ? parseRange(c.req.header('range'), stat.size) : undefined;
  if (range === 'unsatisfiable') return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${stat.size}` });
  const [start, end] = range ? [range.start, range.end] : [0, stat.size - 1];
  const length = stat.size === 0 ? 0 : end - start + 1;
  const status = range ? 206 : 200;
  const sent = { ...headers, 'Content-Length': String(length), ...(range ? { 'Content-Range': `bytes ${start}-${end}/${stat.size}` } : {}) };
  // HEAD is dispatched to this GET handler; the file is not opened for it.
  if (method === 'HEAD' || length === 0) return c.body(null, status, sent);
  const body = Readable.toWeb(storage.stream(key, { start, end })) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers: sent });
}

/**
 * Declared for the OpenAPI document with `{key}` (OpenAPI has no multi-segment parameter); served by a
 * wildcard that answers GET and HEAD, and 405 to any other method.
 */
export const fileRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
fileRoutes.openAPIRegistry.registerPath({
  method: 'get',
  path: '/v1/files/{key}',
  tags: ['artifacts'],
  summary: "An artifact's file (no credential: the key holds the artifact id); local storage streams it with range support, GCS redirects",
  request: {
    params: z.object({ key: z.string().max(1024).openapi({ param: { name: 'key', in: 'path' }, description: 'The storage key, slashes included, for example artifacts/illustration/artifact-…/processed.webp', example: 'artifacts/illustration/artifact-0123456789abcdef/processed.webp' }) }),
    headers: z.object({ range: z.string().optional().openapi({ description: 'One byte range: bytes=0-99, bytes=100- or bytes=-500' }) }),
  },
  responses: {
    200: { description: 'The whole file', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    206: { description: 'The requested byte range, with Content-Range' },
    302: { description: 'GCS storage: the public or signed URL of the object' },
    304: { description: 'Not modified (If-None-Match or If-Modified-Since)' },
    404: { description: 'No such file, or a key outside artifacts/' },
    416: { description: 'The range starts past the end; Content-Range: bytes */size' },
  },
});
fileRoutes.all('/v1/files/*', serveFile);
