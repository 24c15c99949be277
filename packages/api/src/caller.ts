import type { Logger } from 'pino';
import type { GatewayMetrics } from './metrics.js';
import type { AppServices, Principal } from './services.js';

/**
 * What a service needs of a request, without the request: who is calling and what serves them. Route
 * handlers build it once from their context (callerOf in http/caller.ts) and pass it with the inputs
 * they parsed; services never see the HTTP request, its headers or its response.
 */
export interface Caller {
  /** Who is calling: a session or an API key, on behalf of one user. */
  principal: Principal;
  /** The gateway's database, Temporal client, configuration and the rest (services.ts). */
  services: AppServices;
  /** The request's logger, bound to its request id and the caller's user id. */
  logger: Logger;
  requestId: string;
  /** The gateway's Prometheus metrics, when it keeps them. */
  metrics?: GatewayMetrics;
}
