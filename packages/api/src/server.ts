import { type ServerType, serve } from '@hono/node-server';
import { EngineDispatcher } from '@atelier/engine/dispatcher';
import { GATEWAY_SERVICE_NAME, type Tracing, startTracing } from '@atelier/engine/tracing';
import { withStorageSpans } from '@atelier/storage/tracing';
import { createApp } from './app';
import { DEFAULT_ORDER_CONCURRENCY } from './orders/order-actions';
import type { AppServices } from './services';

/**
 * How long an idle client connection stays open (ATELIER_HTTP_KEEP_ALIVE_MS, 65 s by default). Longer than a
 * load balancer's idle timeout (60 s is common), so the balancer, not the gateway, closes idle connections;
 * and long enough that a client keeps its connections between bursts instead of setting up new ones
 * while the process is busy (each new connection takes several turns of a busy event loop).
 */
export function keepAliveMs(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.ATELIER_HTTP_KEEP_ALIVE_MS);
  return Number.isFinite(given) && given > 0 ? given : 65_000;
}

export interface ApiServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * A gateway: the HTTP app and, unless the caller brings its own, the dispatcher that hands the engine
 * what requests recorded (every gateway runs one; they share the work through row locks). Starts tracing
 * for the process when an OTLP endpoint is configured (engine/tracing.ts) and flushes it on close.
 */
export async function startApiServer(given: AppServices, port: number, hostname = '0.0.0.0'): Promise<ApiServer> {
  const tracing = await startTracing({ serviceName: GATEWAY_SERVICE_NAME });
  try {
    return await startGateway(tracing.enabled ? traced(given, tracing) : given, port, hostname, tracing);
  } catch (err) {
    await tracing.shutdown();
    throw err;
  }
}

/** The services with the Temporal client's tracing interceptor (StartWorkflow spans) and storage spans. */
function traced(services: AppServices, tracing: Tracing): AppServices {
  return { ...services, temporal: tracing.traceClient(services.temporal), storage: withStorageSpans(services.storage) };
}

async function startGateway(services: AppServices, port: number, hostname: string, tracing: Tracing): Promise<ApiServer> {
  const own = services.dispatcher
    ? undefined
    : new EngineDispatcher({
        db: services.db,
        temporal: services.temporal,
        taskQueue: services.taskQueue,
        orderConcurrency: services.orderConcurrency ?? DEFAULT_ORDER_CONCURRENCY,
        logger: services.logger.child({ component: 'dispatcher' }),
        ...(services.webhookRetry ? { webhookRetry: services.webhookRetry } : {}),
      });
  own?.start();
  // The app is made once the port is known: without a configured public URL, file URLs are made on the
  // address this gateway listens on (a test's or a developer's), never on a request's Host header.
  let app: ReturnType<typeof createApp> | undefined;
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: (req, env) => app!.fetch(req, env), port, hostname }, () => resolve(s));
    s.once('error', reject);
  });
  const listening = server.address();
  const listeningUrl = `http://127.0.0.1:${typeof listening === 'object' && listening ? listening.port : port}`;
  app = createApp({ ...services, publicUrl: services.publicUrl ?? listeningUrl, ...(own ? { dispatcher: own } : {}) });
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = keepAliveMs();
    // Headers must be allowed to take longer than a connection may idle, or a reused one can time out early.
    server.headersTimeout = server.keepAliveTimeout + 1_000;
  }
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await own?.stop();
      await tracing.shutdown();
    },
  };
}
