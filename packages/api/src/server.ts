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
  const app = createApp(own ? { ...services, dispatcher: own } : services);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname }, () => resolve(s));
    s.once('error', reject);
  });
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
