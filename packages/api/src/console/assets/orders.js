// The workspace's recent orders, newest first, and a form to open one by id. One order's own page is
// order-page.js.
import { api, inWorkspace } from './api.js';
import { $, announce, badge, fill, h, orderLink, table, time, usd } from './dom.js';

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
