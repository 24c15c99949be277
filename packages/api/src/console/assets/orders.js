// Orders: their progress against the target (succeeded, failed, running), spend against budget, and
// their child runs. The API has no order stream, so an open order is read again every few seconds until
// it settles.
import { api, inWorkspace } from './api.js';
import { $, announce, badge, facts, fill, h, orderLink, runLink, table, time, usd } from './dom.js';

const SETTLED = ['completed', 'attention', 'failed', 'cancelled'];

function progress(order) {
  const c = order.counts ?? {};
  const target = Math.max(order.targetCount || 0, 1);
  const share = (n) => `${Math.min(100, (100 * (n ?? 0)) / target)}%`;
  return h(
    'div',
    { class: 'progress' },
    h('progress', { max: String(target), value: String(Math.min(c.succeeded ?? 0, target)), 'aria-label': 'Succeeded of target' }),
    h(
      'div',
      { class: 'bar', 'aria-hidden': 'true' },
      h('span', { class: 'seg ok', style: { width: share(c.succeeded) } }),
      h('span', { class: 'seg bad', style: { width: share(c.failed) } }),
      h('span', { class: 'seg run', style: { width: share(c.running) } }),
    ),
    h(
      'p',
      { class: 'small' },
      `${c.succeeded ?? 0} of ${order.targetCount} succeeded · ${c.failed ?? 0} failed · ${c.running ?? 0} running · ${c.planned ?? 0} planned`,
      c.skipped ? ` · ${c.skipped} skipped` : '',
      c.cancelled ? ` · ${c.cancelled} cancelled` : '',
    ),
  );
}

function spend(order) {
  const limit = order.budgetLimitUsd;
  return [
    `${usd(order.actualCostUsd, order.currency)} spent`,
    limit !== null && limit !== undefined
      ? ` of ${usd(limit, order.currency)} budget (${order.budgetEnforcementMode})`
      : ' (no budget limit)',
    ` · estimated ${usd(order.estimatedCostUsd, order.currency)}`,
  ].join('');
}

function orderRow(order) {
  const c = order.counts ?? {};
  return [
    orderLink(order.id),
    order.workflowId,
    badge(order.status),
    `${c.succeeded ?? 0} / ${order.targetCount}${c.failed ? ` (${c.failed} failed)` : ''}`,
    usd(order.actualCostUsd, order.currency),
    time(order.createdAt),
  ];
}

export async function ordersPage() {
  $('#order-open').addEventListener('submit', (event) => {
    event.preventDefault();
    const id = String(new FormData(event.target).get('id') ?? '').trim();
    if (id) location.assign(`/console/orders/${encodeURIComponent(id)}`);
  });
  try {
    const orders = await api('GET', `/v1/orders?${inWorkspace({ limit: 25 })}`);
    fill(
      $('#orders-table'),
      orders.items.length
        ? table(
            ['Order', 'Workflow', 'Status', 'Succeeded', 'Spent', 'Created'],
            orders.items.map(orderRow),
            orders.total > orders.items.length ? `The newest ${orders.items.length} of ${orders.total}` : undefined,
          )
        : h('p', { class: 'muted' }, 'This workspace has no orders yet.'),
    );
  } catch (err) {
    announce(err.message, 'error');
  }
}

export async function orderPage(orderId) {
  const view = $('#order-view');
  const live = $('#order-live');
  const load = async () => {
    const [order, children] = await Promise.all([
      api('GET', `/v1/orders/${encodeURIComponent(orderId)}`),
      api('GET', `/v1/runs?parentOrderId=${encodeURIComponent(orderId)}&limit=100&includeArchived=true`),
    ]);
    fill(
      view,
      h('section', { class: 'card', 'aria-label': 'Progress' }, progress(order), h('p', { class: 'small' }, spend(order))),
      facts([
        ['Status', badge(order.status)],
        ['Workflow', `${order.workflowId} ${order.workflowVersion}`],
        ['Mode', order.executionMode],
        ['Created', time(order.createdAt)],
        ['Started', order.startedAt ? time(order.startedAt) : ''],
        ['Finished', order.finishedAt ? time(order.finishedAt) : ''],
        ['Gap accepted', order.acceptGapReason],
        ['Failure', order.failureReason],
      ]),
      children.items.length
        ? table(
            ['Run', 'Status', 'Variation', 'Cost', 'Error'],
            children.items.map((r) => [
              runLink(r.id),
              badge(r.status),
              h('code', { class: 'small' }, JSON.stringify(r.intake).slice(0, 80)),
              usd(r.totalCosts?.actualUsd, r.totalCosts?.currency),
              r.error ? h('span', { class: 'error small' }, r.error) : '',
            ]),
            `Children (${children.total})`,
          )
        : h('p', { class: 'muted' }, 'No child runs yet.'),
    );
    return order;
  };
  for (;;) {
    try {
      const order = await load();
      const now = new Date().toLocaleTimeString();
      const still = order.status === 'planned' || SETTLED.includes(order.status);
      live.textContent =
        order.status === 'planned' ? `Planned, not started (${now})` : still ? `Settled (${now})` : `Updating every 3 s · ${now}`;
      live.dataset.state = still ? 'ended' : 'live';
      if (still) return;
    } catch (err) {
      announce(err.message, 'error');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}
