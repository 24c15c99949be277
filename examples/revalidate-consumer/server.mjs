// A minimal consumer of Atelier's revalidation webhooks: plain Node, no dependencies.
//
//   REVALIDATE_SECRET_JOURNAL=whsec_... REVALIDATE_SECTION_JOURNAL=/blog PORT=3000 node server.mjs
//
// One secret per publication in REVALIDATE_SECRET_<SLUG> (slug upper-cased, hyphens to underscores), and
// optionally its section path in REVALIDATE_SECTION_<SLUG> (this site's own route segment; default /<slug>).
// 401 for a bad signature or a timestamp more than five minutes off, 400 for an unknown publication,
// 200 once verified; publish and unpublish revalidate the section path and the document path under it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const TOLERANCE_SECONDS = 5 * 60;
const MAX_BODY_BYTES = 64 * 1024;

/** REVALIDATE_SECRET_<SLUG>'s <SLUG>: upper-cased, hyphens to underscores. */
export const envName = (prefix, slug) => `${prefix}_${slug.toUpperCase().replace(/-/g, '_')}`;

/** Constant-time check of `webhook-signature` (space-separated `v1,<base64>` entries) over the raw bytes. */
export function signatureMatches(secret, id, timestamp, rawBody, signatureHeader) {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  return signatureHeader.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * The request handler. `revalidate(path)` is what a real site does (Next.js revalidatePath, a CDN purge);
 * here it is recorded in `revalidated` and logged. `now()` (seconds) is replaceable for tests.
 */
export function createRevalidateConsumer({
  env = process.env,
  now = () => Date.now() / 1000,
  revalidate = (path) => console.log(`revalidate ${path}`),
  log = console.log,
} = {}) {
  const revalidated = [];
  const seen = new Map(); // webhook-id → when, to answer a redelivered message without redoing the work

  const answer = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function handler(req, res) {
    if (req.method !== 'POST') return answer(res, 405, { error: 'POST only' });
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return answer(res, 413, { error: 'body too large' });
      chunks.push(chunk);
    }
    const raw = Buffer.concat(chunks); // verify these exact bytes, never a re-serialized body
    const id = req.headers['webhook-id'];
    const timestamp = req.headers['webhook-timestamp'];
    const signature = req.headers['webhook-signature'];
    if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
      return answer(res, 401, { error: 'missing webhook headers' });

    let message;
    try {
      message = JSON.parse(raw.toString('utf8'));
    } catch {
      return answer(res, 400, { error: 'body is not JSON' });
    }
    // The slug only picks which secret to check with; nothing is acted on before the signature holds.
    const publication = typeof message?.publication === 'string' ? message.publication : '';
    const secret = publication ? env[envName('REVALIDATE_SECRET', publication)] : undefined;
    if (!secret) return answer(res, 400, { error: 'unknown publication' });

    const ts = Number(timestamp);
    if (!/^\d+$/.test(timestamp) || Math.abs(now() - ts) > TOLERANCE_SECONDS)
      return answer(res, 401, { error: 'timestamp outside the five-minute window' });
    if (!signatureMatches(secret, id, timestamp, raw, signature)) return answer(res, 401, { error: 'bad signature' });

    if (message.action === 'verify') return answer(res, 200, { verified: true });
    if (seen.has(id)) return answer(res, 200, { verified: true, duplicate: true });
    seen.set(id, Date.now());
    for (const [key, at] of seen) if (Date.now() - at > 2 * TOLERANCE_SECONDS * 1000) seen.delete(key);

    const section = (env[envName('REVALIDATE_SECTION', publication)] ?? `/${publication}`).replace(/\/+$/, '') || '';
    const paths = [section || '/', ...(typeof message.slug === 'string' && message.slug ? [`${section}/${message.slug}`] : [])];
    for (const path of paths) {
      revalidate(path);
      revalidated.push({ publication, action: message.action, path, webhookId: id });
    }
    log?.(`${message.action} ${publication}/${message.slug}: revalidated ${paths.join(', ')}`);
    return answer(res, 200, { verified: true, revalidated: paths });
  }

  return { handler, revalidated };
}

/** Listens on `port` (0: any free one); resolves with the server and what it revalidated. */
export function startRevalidateConsumer(port = 3000, options = {}) {
  const consumer = createRevalidateConsumer(options);
  const server = createServer((req, res) => {
    consumer.handler(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ server, port: server.address().port, revalidated: consumer.revalidated })),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { port } = await startRevalidateConsumer(Number(process.env.PORT ?? 3000));
  console.log(`revalidate consumer listening on http://127.0.0.1:${port}/`);
}
