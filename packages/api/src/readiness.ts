import { pingDb } from '@atelier/db';
import type { AppServices } from './services.js';

export interface Readiness {
  ready: boolean;
  checks: { database: 'ok' | 'unreachable'; temporal: 'ok' | 'unreachable' };
}

const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/**
 * Whether this gateway can do its work now: PostgreSQL answers a query and Temporal's frontend answers
 * a call. Liveness (/healthz) only says the process runs; readiness is what a load balancer routes by.
 */
export async function gatewayReadiness(services: Pick<AppServices, 'db' | 'temporal'>, timeoutMs = 2_000): Promise<Readiness> {
  const [database, temporal] = await Promise.all([
    within(timeoutMs, pingDb(services.db, timeoutMs)).then(
      () => 'ok' as const,
      () => 'unreachable' as const,
    ),
    // The call carries the deadline itself: a probe made while Temporal is away must not go on retrying in
    // the background after it was answered (and outlive the connection).
    within(
      timeoutMs,
      services.temporal.connection.withDeadline(Date.now() + timeoutMs, () => services.temporal.workflowService.getSystemInfo({})),
    ).then(
      () => 'ok' as const,
      () => 'unreachable' as const,
    ),
  ]);
  return { ready: database === 'ok' && temporal === 'ok', checks: { database, temporal } };
}
