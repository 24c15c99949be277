import { Readable } from 'node:stream';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type StoredObject, isStreamable } from '@atelier/storage';
import { type FileUrlSigning, verifyFileSignature } from '@atelier/storage/file-urls';
import { fail, validationHook } from '../errors.js';
import type { AppEnv } from '../services.js';

/**
 * GET /v1/files/{key}?exp=…&sig=…: artifact files, as a CDN would serve them.
 *
 * Access: no credential, but a signature. The URL is a capability the gateway hands out inside the
 * artifact (`content.url`, signed at read time for whoever may read the artifact): `sig` is base64url
 * HMAC-SHA256(ATELIER_FILE_SIGNING_SECRET, key + "\n" + exp), checked in constant time before anything
 * is looked up, and `exp` (unix seconds) always bounds it (ATELIER_FILE_URL_TTL_SECONDS, default 7 days).
 * The bare key, a bad signature, another key's signature and keys outside `artifacts/` answer 404, never
 * 403, so nothing is learnt about what exists; a valid signature past its `exp` answers 403 `file URL
 * expired` (it says nothing about the file either: the answer comes before the file is looked up).
 * Rotating the secret revokes every URL handed out.
 *
 * Local driver: the gateway streams the file with Content-Type, Content-Length, Accept-Ranges, one byte
 * range per request (206 / 416), a strong ETag (If-None-Match → 304, If-Range), Last-Modified
 * (If-Modified-Since → 304) and `Cache-Control: private, max-age=<seconds until exp>, immutable`: a key
 * belongs to one artifact and its bytes do not change, but the URL dies at exp and shared caches must not
 * outlive a revocation. HEAD answers the same headers without a body. GCS driver: once the signature
 * verifies, 302 to storage.url(key), the public address or the driver's own signed URL, not cached.
 */
const SAFE_KEY = /^artifacts\/[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** What presenters need to hand out signed file URLs: the public origin and the signing settings. */
export function fileLinks(c: Context<AppEnv>): { origin: string; signing: FileUrlSigning } {
  const { fileUrls: signing, publicUrl } = c.get('services');
  if (!signing) throw new Error('the gateway has no file URL signing secret (createApp sets one)');
  if (!publicUrl) throw new Error('the gateway has no public URL (createApp requires one)');
  return { origin: publicUrl, signing };
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
  const notFound = () => {
    throw fail.notFound('file');
  };
  if (!key) return notFound();
  const { storage, fileUrls } = c.get('services');
  if (!fileUrls) return notFound();
  const url = new URL(c.req.url);
  const nowSeconds = Date.now() / 1000;
  const access = verifyFileSignature(
    fileUrls.secret,
    key,
    url.searchParams.get('exp') ?? undefined,
    url.searchParams.get('sig') ?? undefined,
    nowSeconds,
  );
  if (!access.ok) {
    if (access.reason === 'expired')
      throw fail.forbidden('file URL expired: read the artifact again for a fresh content.url', { 'Cache-Control': 'no-store' });
    return notFound();
  }

  if (!isStreamable(storage)) {
    return c.body(null, 302, { Location: await storage.url(key, fileLinks(c).origin), 'Cache-Control': 'private, no-store' });
  }
  const stat = await storage.stat(key);
  if (!stat) return notFound();
  const etag = stat.etag ?? `"${stat.size.toString(16)}"`;
  const headers: Record<string, string> = {
    'Content-Type': stat.contentType,
    'Accept-Ranges': 'bytes',
    ETag: etag,
    // Immutable bytes, but only until the URL dies; private so no shared cache outlives a revocation.
    'Cache-Control': `private, max-age=${Math.max(0, Math.floor(access.exp - nowSeconds))}, immutable`,
    'X-Content-Type-Options': 'nosniff',
    ...(stat.updatedAt ? { 'Last-Modified': stat.updatedAt.toUTCString() } : {}),
  };
  if (notModified(c, stat, etag)) return c.body(null, 304, headers);

  const range = rangeStillValid(c, stat, etag) ? parseRange(c.req.header('range'), stat.size) : undefined;
  if (range === 'unsatisfiable') return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${stat.size}` });
  const [start, end] = range ? [range.start, range.end] : [0, stat.size - 1];
  const length = stat.size === 0 ? 0 : end - start + 1;
  const status = range ? 206 : 200;
  const sent = {
    ...headers,
    'Content-Length': String(length),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${stat.size}` } : {}),
  };
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
  summary:
    "An artifact's file by its signed URL (content.url: no credential, exp and sig in the query); local storage streams it with range support, GCS redirects",
  description:
    'Public: serves an artifact file through the signed URL found in content.url (exp and sig in the query), so no credential is needed. A missing or wrong signature is 404, an expired one 403 (read the artifact again for a fresh URL), and a range past the end 416.',
  request: {
    params: z.object({
      key: z
        .string()
        .max(1024)
        .openapi({
          param: { name: 'key', in: 'path' },
          description: 'The storage key, slashes included, for example artifacts/illustration/artifact-…/processed.webp',
          example: 'artifacts/illustration/artifact-0123456789abcdef/processed.webp',
        }),
    }),
    query: z.object({
      exp: z.string().max(12).openapi({ description: 'When the URL dies, in unix seconds (part of content.url)', example: '1767225600' }),
      sig: z.string().max(43).openapi({
        description: 'base64url HMAC-SHA256 of the key and exp under the gateway secret (part of content.url)',
        example: 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c',
      }),
    }),
    headers: z.object({ range: z.string().optional().openapi({ description: 'One byte range: bytes=0-99, bytes=100- or bytes=-500' }) }),
  },
  responses: {
    200: { description: 'The whole file', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    206: { description: 'The requested byte range, with Content-Range' },
    302: { description: 'GCS storage: the public or signed URL of the object' },
    304: { description: 'Not modified (If-None-Match or If-Modified-Since)' },
    403: { description: 'The signature is valid but the URL has expired: read the artifact again for a fresh content.url' },
    404: { description: "No such file, a key outside artifacts/, or a missing, wrong or other key's signature" },
    416: { description: 'The range starts past the end; Content-Range: bytes */size' },
  },
});
fileRoutes.all('/v1/files/*', serveFile);
