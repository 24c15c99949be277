import { OpenAPIHono } from '@hono/zod-openapi';
import { MessageError, RequestValidationError } from '@atelier/contracts/errors';
import { mountDocs } from './docs-page.js';
import { mountConsole } from './console/index.js';
import { temporalUiUrl } from './console/temporal-ui.js';
import { gatewayReadiness } from './readiness.js';
import { routedPath } from './http/action-paths.js';
import { publishedDocument } from './http/openapi-document.js';
import { fail, renderError, validationHook } from './errors.js';
import { bodySizeLimit, inputGuard } from './middleware/input-guard.js';
import { requestContext } from './middleware/request-context.js';
import { traceRequests } from './middleware/tracing.js';
import { tracingActive } from '@atelier/engine/tracing';
import { httpMetrics } from './middleware/metrics.js';
import { operatorOnly } from './middleware/operator-only.js';
import { createGatewayMetrics } from './metrics.js';
import { PROMETHEUS_CONTENT_TYPE } from '@atelier/engine/metrics';
import { apiKeyRoutes } from './routes/api-keys.js';
import { artifactRoutes } from './routes/artifacts.js';
import { authRoutes } from './routes/auth.js';
import { budgetRoutes } from './routes/budgets.js';
import { catalogRoutes } from './routes/catalog.js';
import { costRoutes } from './routes/costs.js';
import { fileRoutes } from './routes/files.js';
import { orderRoutes } from './routes/orders.js';
import { projectRoutes } from './routes/projects.js';
import { publicationRoutes } from './routes/publications.js';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.js';
import { queueRoutes } from './routes/queue.js';
import { runActionRoutes } from './routes/run-actions.js';
import { runBulkRoutes } from './routes/run-bulk.js';
import { runEventRoutes } from './routes/run-events.js';
import { runRoutes } from './routes/runs.js';
import { characterRoutes } from './routes/characters.js';
import { characterBindingRoutes } from './routes/character-bindings.js';
import { characterReferenceRoutes } from './routes/character-references.js';
import { characterVersionRoutes } from './routes/character-versions.js';
import { clientRoutes } from './routes/clients.js';
import { clientContactRoutes } from './routes/client-contacts.js';
import { brandRoutes } from './routes/brands.js';
import { campaignRoutes } from './routes/campaigns.js';
import { opsRoutes } from './routes/ops.js';
import { providerWebhookRoutes } from './routes/provider-webhooks.js';
import { subjectRoutes } from './routes/subjects.js';
import { userRoutes } from './routes/users.js';
import { workflowRoutes } from './routes/workflows.js';
import { workspaceRoutes } from './routes/workspaces.js';
import type { AppEnv, AppServices } from './services.js';
import { loginThrottleSettings } from './auth/login-throttle.js';
import { trustedProxyHops } from './http/client-address.js';
import { fileUrlSigning, generateFileSigningSecret } from '@atelier/storage/file-urls';
import { publicOrigin } from './http/public-origin.js';

/** The gateway: every /v1 route is declared with zod schemas, and /openapi.json is generated from them. */
export function createApp(given: AppServices) {
  if (!given.publicUrl) throw new Error('createApp needs publicUrl: the origin clients reach the gateway at (ATELIER_PUBLIC_URL)');
  const services: AppServices = {
    ...given,
    publicUrl: publicOrigin(given.publicUrl),
    fileUrls: given.fileUrls ?? fileUrlSigning(generateFileSigningSecret()),
    // Read once here, so that a bad setting stops the gateway at start rather than failing sign-ins.
    loginThrottle: loginThrottleSettings(process.env, given.loginThrottle),
    trustedProxyHops: trustedProxyHops(process.env, given.trustedProxyHops),
    temporalUiUrl: temporalUiUrl(process.env, given.temporalUiUrl),
  };
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, getPath: routedPath });
  // A server span per request, outermost, when this process exports traces (startApiServer starts tracing).
  if (tracingActive()) app.use('*', traceRequests());
  app.use('*', requestContext(services));
  const metrics = createGatewayMetrics(services.db);
  app.use('*', httpMetrics(metrics));
  app.use('/v1/*', bodySizeLimit(), inputGuard());
  // The error bodies the edge answers with are referenced by name in the published document.
  app.openAPIRegistry.register('MessageError', MessageError);
  app.openAPIRegistry.register('RequestValidationError', RequestValidationError);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'A session access token from /v1/auth/login, or an API key (atl_...)',
  });

  app.route('/', authRoutes);
  app.route('/', apiKeyRoutes);
  app.route('/', catalogRoutes);
  app.route('/', runRoutes);
  app.route('/', runActionRoutes);
  app.route('/', runBulkRoutes);
  app.route('/', runEventRoutes);
  app.route('/', artifactRoutes);
  app.route('/', fileRoutes);
  app.route('/', orderRoutes);
  app.route('/', budgetRoutes);
  app.route('/', costRoutes);
  app.route('/', userRoutes);
  app.route('/', workspaceRoutes);
  app.route('/', projectRoutes);
  app.route('/', queueRoutes);
  app.route('/', workflowRoutes);
  app.route('/', subjectRoutes);
  app.route('/', characterRoutes);
  app.route('/', characterReferenceRoutes);
  app.route('/', characterVersionRoutes);
  app.route('/', characterBindingRoutes);
  app.route('/', clientRoutes);
  app.route('/', clientContactRoutes);
  app.route('/', brandRoutes);
  app.route('/', campaignRoutes);
  app.route('/', opsRoutes);
  app.route('/', publicationRoutes);
  app.route('/', webhookEndpointRoutes);
  app.route('/', providerWebhookRoutes);

  const documentConfig = {
    openapi: '3.1.0',
    info: { title: 'Atelier', version: '1.0.0', description: 'Durable workflow engine for AI content production' },
    // Paths carry /v1; the server is wherever this document was fetched from (or the public URL).
    servers: [{ url: (process.env.ATELIER_PUBLIC_URL && services.publicUrl) || '/', description: 'This gateway' }],
  };
  let document: unknown;
  app.get('/openapi.json', (c) => {
    document ??= publishedDocument(app.getOpenAPI31Document(documentConfig));
    return c.json(document);
  });
  mountDocs(app);
  mountConsole(app, services.temporalUiUrl ? { ui: services.temporalUiUrl, namespace: services.temporal.options.namespace } : undefined);
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/metrics', operatorOnly(services.metricsToken), async (c) =>
    c.body(await metrics.registry.metrics(), 200, { 'Content-Type': PROMETHEUS_CONTENT_TYPE }),
  );
  app.get('/readyz', async (c) => {
    const readiness = await gatewayReadiness(services);
    if (!readiness.ready) c.header('Retry-After', '5');
    return c.json(readiness, readiness.ready ? 200 : 503);
  });
  app.notFound((c) => renderError(fail.noRoute(c.req.method, c.req.path), c));
  app.onError(renderError);
  return app;
}
