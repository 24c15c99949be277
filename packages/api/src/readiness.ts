import { pingDb } from '@atelier/db';
import type { AppServices } from './services.js';

export interface Readiness {
  ready: boolean;
  checks: { database: 'ok' | 'unreachable'; temporal: 'ok' | 'unreachable' };
}

const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** The Temporal probe in flight per client, and when it began: probes that come while it is unanswered wait on it. */
const temporalProbes = new WeakMap<AppServices['temporal'], { answer: Promise<unknown>; at: number }>();
/** A call unanswered this long (a connection gone silent) is no longer waited on: the next probe makes its own. */
const PROBE_REUSE_MS = 30_000;

/**
 * Temporal's frontend answering a call. The call carries no deadline of its own: a deadline is set through the
 * connection's AsyncLocalStorage, and the first use of one turns on Node's async hooks for the life of the
 * process, which then tag every promise the gateway makes (about a tenth of its CPU on a run followed over its
 * event stream; test/integration/gateway-async-hooks.test.ts). A call made while Temporal is away is retried by
 * the connection instead, for up to about 10 s; one at a time per client, so probes do not pile up behind an outage.
 */
function probeTemporal(temporal: AppServices['temporal']): Promise<unknown> {
  const now = Date.now();
  const inFlight = temporalProbes.get(temporal);
  if (inFlight && now - inFlight.at < PROBE_REUSE_MS) return inFlight.answer;
  const probe = {
    answer: temporal.workflowService.getSystemInfo({}).finally(() => {
      if (temporalProbes.get(temporal) === probe) temporalProbes.delete(temporal);
    }),
    at: now,
  };
  temporalProbes.set(temporal, probe);
  return probe.answer;
}

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
    within(timeoutMs, probeTemporal(services.temporal)).then(
      () => 'ok' as const,
      () => 'unreachable' as const,
    ),
  ]);
  return { ready: database === 'ok' && temporal === 'ok', checks: { database, temporal } };
}
