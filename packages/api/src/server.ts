import { type ServerType, serve } from '@hono/node-server';
import { EngineDispatcher } from '@atelier/engine/dispatcher';
import { GATEWAY_SERVICE_NAME, type Tracing, startTracing } from '@atelier/engine/tracing';
import { withStorageSpans } from '@atelier/storage/tracing';
import { createApp } from './app.js';
import { addAcceptors } from './http/acceptors.js';
import { type ConnectionLimits, capConnectionsPerAddress, connectionLimits, httpServerOptions } from './http/connection-limits.js';
import { DEFAULT_ORDER_CONCURRENCY } from '@atelier/domain/priority';
import type { AppServices } from './services.js';

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
export async function startApiServer(
  given: AppServices,
  port: number,
  hostname = '0.0.0.0',
  limits: ConnectionLimits = connectionLimits(),
): Promise<ApiServer> {
  const tracing = await startTracing({ serviceName: GATEWAY_SERVICE_NAME });
  try {
    return await startGateway(tracing.enabled ? traced(given, tracing) : given, { port, hostname, limits }, tracing);
  } catch (err) {
    await tracing.shutdown();
    throw err;
  }
}

/** The services with the Temporal client's tracing interceptor (StartWorkflow spans) and storage spans. */
function traced(services: AppServices, tracing: Tracing): AppServices {
  return { ...services, temporal: tracing.traceClient(services.temporal), storage: withStorageSpans(services.storage) };
}

interface Listen {
  port: number;
  hostname: string;
  limits: ConnectionLimits;
}

async function startGateway(services: AppServices, { port, hostname, limits }: Listen, tracing: Tracing): Promise<ApiServer> {
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
    const s = serve({ fetch: (req, env) => app!.fetch(req, env), port, hostname, serverOptions: httpServerOptions(limits) }, () =>
      resolve(s),
    );
    s.once('error', reject);
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const url = `http://127.0.0.1:${actual}`;
  app = createApp({ ...services, publicUrl: services.publicUrl ?? url, ...(own ? { dispatcher: own } : {}) });
  const log = services.logger.child({ component: 'http' });
  capConnectionsPerAddress(server, limits.maxConnectionsPerAddress, (address) =>
    log.warn({ address, max: limits.maxConnectionsPerAddress }, 'refusing connections past the per-address cap'),
  );
  const closeAcceptors = await addAcceptors(server, limits.acceptors).catch((err: unknown) => {
    // One handle still serves: the gateway only takes a burst of new connections more slowly.
    log.warn({ err }, 'taking new connections through one handle: its copies could not be made');
    return () => undefined;
  });
  return {
    port: actual,
    url,
    close: async () => {
      closeAcceptors();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await own?.stop();
      await tracing.shutdown();
    },
  };
}
