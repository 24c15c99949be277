/**
 * Target 3, orders: the completion rate (children per second) of an order of N plan-research-report
 * children against a bare Temporal parent that fans out N no-op children at the same concurrency.
 *
 * - atelier: the order is planned through the gateway (POST /v1/orders, a `list` of N distinct topics;
 *   not timed), then started (POST /v1/orders/{id}/start). The gateway's dispatcher starts the order
 *   workflow, which claims planned children from PostgreSQL and keeps `concurrency` child runs in flight
 *   (the stack's orderConcurrency, ATELIER_ORDER_CONCURRENCY, default 8), continuing as new every 400
 *   children. Timed from the start request until every child is terminal in the read model (polled every
 *   200 ms with one count query);
 * - bare: `bareOrderWorkflow` (bench/bare-workflows.ts), a parent keeping `concurrency` bareWorkflow
 *   children (three no-op activities each, the Temporal floor of one plan-research-report run) in flight,
 *   timed from its start until its result.
 * Ratio = atelier children/s ÷ bare children/s (target ≥ 0.8); with several rounds (ABBA), the best of each.
 */
import { randomBytes } from 'node:crypto';
import { type Sides, TERMINAL, abba, http, rawQuery } from './harness';
import { RUNS_TEMPLATE } from './target-runs';
import { round1, round3, sleep } from './stats';

export const ORDERS_TARGET = 0.8;

export interface OrderSettings {
  children: number;
  concurrency: number;
  rounds: number;
  timeoutMs: number;
}

interface OrderPhase {
  side: 'bare' | 'atelier';
  seconds: number;
  childrenPerSec: number;
  cpuMsPerChild: Record<string, number>;
  nodeThreadsMsPerChild: Record<string, number>;
  machineBusy: number;
  db?: unknown;
  /** Temporal history of the parent (its last execution), and for Atelier the order's final status and counts. */
  parent: Record<string, unknown>;
}

async function bareOrder(
  s: Sides,
  settings: OrderSettings,
): Promise<Omit<OrderPhase, 'cpuMsPerChild' | 'nodeThreadsMsPerChild' | 'machineBusy'>> {
  const workflowId = `bench-order-${randomBytes(3).toString('hex')}`;
  const t0 = performance.now();
  const done = await s.client.workflow.execute('bareOrderWorkflow', {
    taskQueue: s.bareQueue,
    workflowId,
    args: [{ children: settings.children, concurrency: settings.concurrency }],
    workflowExecutionTimeout: settings.timeoutMs,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (done !== settings.children) throw new Error(`the bare parent finished ${done} of ${settings.children} children`);
  const described = await s.client.workflow.getHandle(workflowId).describe();
  return { side: 'bare', seconds, childrenPerSec: round1(settings.children / seconds), parent: { historyLength: described.historyLength } };
}

async function atelierOrder(
  s: Sides,
  settings: OrderSettings,
): Promise<Omit<OrderPhase, 'cpuMsPerChild' | 'nodeThreadsMsPerChild' | 'machineBusy'>> {
  const tag = randomBytes(3).toString('hex');
  const items = Array.from({ length: settings.children }, (_, i) => ({ topic: `order ${tag} child ${i}` }));
  const planned = await http(
    s.atelierUrl,
    'POST',
    '/v1/orders',
    { workflowId: RUNS_TEMPLATE, variationSpec: { resolver: 'list', params: { items } } },
    s.apiKey,
  );
  if (planned.status !== 201) throw new Error(`POST /v1/orders: ${planned.status} ${JSON.stringify(planned.body).slice(0, 300)}`);
  const orderId = planned.body.id as string;
  const t0 = performance.now();
  const started = await http(s.atelierUrl, 'POST', `/v1/orders/${orderId}/start`, {}, s.apiKey);
  if (started.status !== 200)
    throw new Error(`POST /v1/orders/${orderId}/start: ${started.status} ${JSON.stringify(started.body).slice(0, 300)}`);
  const deadline = t0 + settings.timeoutMs;
  let done = 0;
  for (;;) {
    s.own.queries++;
    const [row] = await rawQuery<{ done: string }>(
      s.benchDb,
      'select count(*) filter (where status = any($2::text[])) as done from runs where parent_order_id = $1',
      [orderId, [...TERMINAL]],
    );
    done = Number(row?.done ?? 0);
    if (done >= settings.children || s.aborted()) break;
    if (performance.now() > deadline)
      throw new Error(`order ${orderId}: ${done} of ${settings.children} children terminal after ${settings.timeoutMs} ms`);
    await sleep(200);
  }
  // Done when the order itself has settled after its last child, as the bare parent is done when it returns.
  while (!s.aborted() && performance.now() < deadline) {
    s.own.queries++;
    const [order] = await rawQuery<{ status: string }>(s.benchDb, 'select status from orders where id = $1', [orderId]);
    if (order && !['planned', 'running'].includes(order.status)) break;
    await sleep(20);
  }
  const seconds = (performance.now() - t0) / 1000;
  const order = await http(s.atelierUrl, 'GET', `/v1/orders/${orderId}`, undefined, s.apiKey);
  const described = await s.client.workflow
    .getHandle(orderId)
    .describe()
    .catch(() => undefined);
  return {
    side: 'atelier',
    seconds,
    childrenPerSec: round1(settings.children / seconds),
    parent: { status: order.body?.status, counts: order.body?.counts, lastExecutionHistoryLength: described?.historyLength },
  };
}

/** The orders target: `rounds` ABBA rounds of one order on each side. */
export async function measureOrders(s: Sides, settings: OrderSettings) {
  const phases: OrderPhase[] = [];
  for (let r = 1; r <= settings.rounds && !s.aborted(); r++) {
    for (const side of abba(r, 'bare' as const, 'atelier' as const)) {
      s.log(`orders round ${r} ${side}: ${settings.children} children, ${settings.concurrency} in flight`);
      const m = await s.meter.measure(
        () => (side === 'bare' ? bareOrder(s, settings) : atelierOrder(s, settings)),
        () => settings.children,
      );
      const p: OrderPhase = {
        ...m.value,
        cpuMsPerChild: m.cpu.perUnitMs,
        nodeThreadsMsPerChild: m.cpu.nodeThreadsPerUnitMs,
        machineBusy: m.cpu.machineBusy,
        ...(m.db ? { db: m.db } : {}),
      };
      s.log(
        `orders round ${r} ${side}: ${p.seconds.toFixed(1)} s = ${p.childrenPerSec} children/s; CPU/child ${JSON.stringify(p.cpuMsPerChild)}; ` +
          `machine busy ${p.machineBusy}; ${JSON.stringify(p.parent)}`,
      );
      phases.push(p);
    }
  }
  if (s.aborted()) throw new Error('interrupted');
  const best = (side: 'bare' | 'atelier') =>
    phases.filter((p) => p.side === side).reduce((a, b) => (b.childrenPerSec > a.childrenPerSec ? b : a));
  const bare = best('bare');
  const atelier = best('atelier');
  const ratio = round3(atelier.childrenPerSec / bare.childrenPerSec);
  return {
    summary: {
      measure: `completion rate of a ${settings.children}-child order, children/s, ${settings.concurrency} in flight`,
      ratio,
      ratioIs: 'atelier / bare',
      atelier: atelier.childrenPerSec,
      bare: bare.childrenPerSec,
      target: `>= ${ORDERS_TARGET}`,
      pass: ratio >= ORDERS_TARGET && atelier.parent.status === 'completed',
    },
    detail: { ...settings, bare, atelier, rounds: phases },
  };
}
