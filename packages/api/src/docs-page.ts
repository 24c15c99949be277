import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { fail } from './errors.js';

/**
 * The API reference at /docs: Swagger UI served from the swagger-ui-dist package, so the page works
 * offline, rendering /openapi.json.
 */
const require = createRequire(import.meta.url);
const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Atelier API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>`;
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });`;

export function mountDocs(app: Hono<any>): void {
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'Content-Type': 'application/javascript; charset=utf-8' }));
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) throw fail.noRoute(c.req.method, c.req.path);
    const body = await readFile(path.join(assetsDir, file));
    return c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
}
