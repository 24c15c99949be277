import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';
import { type ConsoleView, consolePage, notFoundPage } from './shell.js';
import { runExecutionUrl } from './temporal-ui.js';

/**
 * The review console at /console (docs/console.md): server-rendered page shells plus a few plain ES
 * modules under /console/assets/ that call the public /v1 API with the reviewer's bearer token. Nothing
 * here is a /v1 route, so none of it appears in /openapi.json, and no route here reads or writes data:
 * every piece of data the pages show comes through the same API, with the same authorization, as any
 * other client's.
 */
const assetsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

const SCRIPT = 'text/javascript; charset=utf-8';
const ASSETS: Record<string, string> = {
  'console.css': 'text/css; charset=utf-8',
  'views.css': 'text/css; charset=utf-8',
  'main.js': SCRIPT,
  'api.js': SCRIPT,
  'dom.js': SCRIPT,
  'markdown.js': SCRIPT,
  'artifact.js': SCRIPT,
  'queue.js': SCRIPT,
  'decision.js': SCRIPT,
  'runs.js': SCRIPT,
  'run-page.js': SCRIPT,
  'run-steps.js': SCRIPT,
  'run-actions.js': SCRIPT,
  'orders.js': SCRIPT,
  'order-page.js': SCRIPT,
  'order-actions.js': SCRIPT,
  'order-gallery.js': SCRIPT,
  'settings.css': 'text/css; charset=utf-8',
  'settings.js': SCRIPT,
  'api-keys.js': SCRIPT,
  'webhooks.js': SCRIPT,
  'budgets.js': SCRIPT,
};

/**
 * The browser may fetch only from this origin: scripts, styles and API calls. Artifact files are
 * signed gateway URLs on this origin too; with GCS the gateway redirects a verified file request to
 * the storage service, which is why images and media may also come over https.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' https: data: blob:",
  "media-src 'self' https: blob:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Generated ids (runs, orders) as the console links to them; anything else is not a console page. */
const PAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

function pageHeaders(c: Context) {
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-cache');
}

function notFound(c: Context) {
  pageHeaders(c);
  return c.html(notFoundPage(c.req.path), 404);
}

/** Where the console links a run's execution in the Temporal Web UI; absent, it shows no link. */
export interface ConsoleTemporalUi {
  ui: string;
  namespace: string;
}

function page(c: Context, view: ConsoleView, id?: string, temporal?: ConsoleTemporalUi) {
  if (id !== undefined && !PAGE_ID.test(id)) return notFound(c);
  pageHeaders(c);
  // A run page carries its execution's address for its script: the gateway's setting, not data of the run.
  const execution = view === 'run' && id && temporal ? runExecutionUrl(temporal.ui, temporal.namespace, id) : undefined;
  return c.html(consolePage(view, id, execution));
}

const cache = new Map<string, Buffer>();

export function mountConsole(app: Hono<any>, temporal?: ConsoleTemporalUi): void {
  app.get('/console', (c) => page(c, 'signin'));
  app.get('/console/queue', (c) => page(c, 'queue'));
  app.get('/console/runs', (c) => page(c, 'runs'));
  app.get('/console/runs/:id', (c) => page(c, 'run', c.req.param('id'), temporal));
  app.get('/console/orders', (c) => page(c, 'orders'));
  app.get('/console/orders/:id', (c) => page(c, 'order', c.req.param('id')));
  app.get('/console/settings', (c) => page(c, 'settings'));
  app.get('/console/settings/api-keys', (c) => page(c, 'api-keys'));
  app.get('/console/settings/webhooks', (c) => page(c, 'webhooks'));
  app.get('/console/settings/budgets', (c) => page(c, 'budgets'));
  app.get('/console/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return notFound(c);
    let body = cache.get(file);
    if (!body) cache.set(file, (body = await readFile(path.join(assetsDir, file))));
    // Revalidated on every load, so a new gateway version is picked up at once; the files are small.
    return c.body(new Uint8Array(body), 200, { 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  });
  // Last, so every console page above wins: whatever else a person opens under /console is a page too.
  app.get('/console/*', notFound);
}
