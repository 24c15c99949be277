import { type Counter, Gauge, type Histogram, Registry } from 'prom-client';
import { type Db, IN_FLIGHT_RUN_STATUSES, orderChildrenInFlight, ordersByStatus, runsInFlightByStatus } from '@atelier/db';
import { metricsOn, registerPoolMetrics, registerProcessMetrics } from '@atelier/engine/metrics';

/**
 * Prometheus metrics of a gateway, on a Registry of its own (never prom-client's global one), so
 * several gateways in one process never collide. docs/operations.md ("Metrics and alerts") says what
 * each one means.
 */
export interface GatewayMetrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpDuration: Histogram<'route' | 'method'>;
  runsCreated: Counter<'template'>;
  budgetRefusals: Counter<'reason' | 'scope'>;
}

const ORDER_STATUSES = ['planned', 'running', 'attention', 'completed', 'failed', 'cancelled'] as const;

export function createGatewayMetrics(db: Db): GatewayMetrics {
  const registry = new Registry();
  registerProcessMetrics(registry);
  registerPoolMetrics(registry, db);
  // Gauges read from PostgreSQL when scraped, one query each. A query that fails (the database is
  // away) leaves the gauge empty for that scrape rather than failing the whole scrape.
  new Gauge({
    name: 'atelier_orders',
    help: 'Orders by status, read from the database on scrape',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await ordersByStatus(db).catch(() => undefined);
      if (!rows) return;
      for (const status of ORDER_STATUSES) this.set({ status }, 0);
      for (const row of rows) this.set({ status: row.status }, row.orders);
    },
  });
  new Gauge({
    name: 'atelier_order_children_in_flight',
    help: 'Child runs of orders not yet settled (pending, queued or running), read from the database on scrape',
    registers: [registry],
    async collect() {
      this.reset();
      const children = await orderChildrenInFlight(db).catch(() => undefined);
      if (children !== undefined) this.set(children);
    },
  });
  // atelier_runs_in_flight and atelier_runs_oldest_in_flight_age_seconds come from one query, shared by
  // both gauges within a scrape (the registry collects its metrics concurrently).
  let inFlightQuery: Promise<Awaited<ReturnType<typeof runsInFlightByStatus>> | undefined> | undefined;
  const runsInFlight = () => {
    inFlightQuery ??= runsInFlightByStatus(db)
      .catch(() => undefined)
      .finally(() => {
        inFlightQuery = undefined;
      });
    return inFlightQuery;
  };
  type InFlightRow = NonNullable<Awaited<ReturnType<typeof runsInFlight>>>[number];
  // Both gauges label every unsettled status, a status with no run at 0, so a series never goes missing.
  const inFlightGauge = (name: string, help: string, value: (row: InFlightRow) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await runsInFlight();
        if (!rows) return;
        for (const status of IN_FLIGHT_RUN_STATUSES) {
          const row = rows.find((r) => r.status === status);
          this.set({ status }, row ? value(row) : 0);
        }
      },
    });
  inFlightGauge(
    'atelier_runs_in_flight',
    'Runs not yet settled, by status (pending, queued, running), read from the database on scrape',
    (r) => r.runs,
  );
  inFlightGauge(
    'atelier_runs_oldest_in_flight_age_seconds',
    'Age in seconds of the oldest run in each unsettled status (pending, queued, running); 0 when there is none',
    (r) => r.oldestAgeSeconds,
  );
  const metric = metricsOn(registry);
  return {
    registry,
    httpRequests: metric.counter(
      'atelier_http_requests_total',
      'Requests answered by the gateway, by route template (the matched route, never the raw URL), method and status',
      ['route', 'method', 'status'],
    ),
    httpDuration: metric.histogram(
      'atelier_http_request_duration_seconds',
      'Time the gateway took to answer (to the response head; streams are not timed to their end), by route template and method',
      ['route', 'method'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    ),
    runsCreated: metric.counter(
      'atelier_runs_created_total',
      'Runs recorded by POST /v1/runs (and the routes that create runs the same way), by built-in workflow (authored: any workflow a workspace wrote)',
      ['template'],
    ),
    budgetRefusals: metric.counter(
      'atelier_budget_refusals_total',
      'Requests refused by a budget (answered 402), by refusal reason and budget scope',
      ['reason', 'scope'],
    ),
  };
}
