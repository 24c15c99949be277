// One order: its progress against the target, spend against budget, what can be done to it now, a
// gallery of what its children made, and the children themselves. The API has no order event stream
// (only runs have one), so the page reads the order again while it can still change: soon after a
// change or an action (1 s), less often while nothing moves (up to 5 s), not at all while the tab is
// hidden, and never again once the order is completed, failed or cancelled.
import { api } from './api.js';
import { $, announce, badge, facts, fill, h, runLink, table, time, usd } from './dom.js';
import { orderActions } from './order-actions.js';
import { GALLERY_PAGE, renderGallery } from './order-gallery.js';

/** No transition leaves these (service spec, "Order statuses"); attention still waits for a decision. */
const TERMINAL = ['completed', 'failed', 'cancelled'];
const FASTEST = 1000;
const SLOWEST = 5000;
const CHILD_PAGE = 100;

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
      { class: 'small counts' },
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

function summary(order) {
  return [
    h('section', { class: 'card', 'aria-label': 'Progress' }, progress(order), h('p', { class: 'small spend' }, spend(order))),
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
  ];
}

function childTable(children, total) {
  if (!children.length) return h('p', { class: 'muted' }, 'No child runs yet.');
  const rows = children.slice(0, CHILD_PAGE);
  return table(
    ['Run', 'Status', 'Variation', 'Cost', 'Error'],
    rows.map((r) => [
      runLink(r.id),
      badge(r.status),
      h('code', { class: 'small' }, JSON.stringify(r.intake).slice(0, 80)),
      usd(r.totalCosts?.actualUsd, r.totalCosts?.currency),
      r.error ? h('span', { class: 'error small' }, r.error) : '',
    ]),
    total > rows.length ? `Children (the newest ${rows.length} of ${total})` : `Children (${total})`,
  );
}

/** The children pages asked for so far (newest first), read together: the gallery may want more than one. */
async function readChildren(orderId, pages) {
  const answers = await Promise.all(
    Array.from({ length: pages }, (_, i) =>
      api('GET', `/v1/runs?parentOrderId=${encodeURIComponent(orderId)}&limit=${CHILD_PAGE}&offset=${i * CHILD_PAGE}&includeArchived=true`),
    ),
  );
  return { items: answers.flatMap((a) => a.items), total: answers[0]?.total ?? 0 };
}

export async function orderPage(orderId) {
  const live = $('#order-live');
  const parts = {
    summary: h('div', { class: 'order-summary' }),
    actions: h('div', { class: 'order-actions', 'aria-label': 'Actions' }),
    gallery: h('section', { class: 'order-gallery', 'aria-label': 'Gallery' }),
    children: h('div', { class: 'order-children' }),
  };
  fill($('#order-view'), parts.summary, parts.actions, parts.gallery, parts.children);

  const state = { pages: 1, shown: GALLERY_PAGE, delay: FASTEST, seen: '', timer: undefined, ended: false, busy: false, again: false };
  const showActions = orderActions(parts.actions, orderId, () => soon());

  const load = async () => {
    const [order, children] = await Promise.all([
      api('GET', `/v1/orders/${encodeURIComponent(orderId)}`),
      readChildren(orderId, state.pages),
    ]);
    fill(parts.summary, summary(order));
    showActions(order.status);
    fill(parts.children, childTable(children.items, children.total));
    await renderGallery(parts.gallery, children.items, {
      shown: state.shown,
      unloaded: children.total > children.items.length,
      more: () => {
        state.shown += GALLERY_PAGE;
        // More tiles than the loaded children hold: read the next page of children too.
        if (state.shown > children.items.length && children.total > children.items.length) state.pages += 1;
        soon();
      },
    });
    return { order, children };
  };

  /** Reads once and plans the next read: sooner when something moved, later while nothing does. */
  const tick = async () => {
    state.timer = undefined;
    // One read at a time: an action's read asked for during a timed one follows it at once.
    if (state.busy) {
      state.again = true;
      return;
    }
    if (state.ended) return;
    if (document.visibilityState === 'hidden') {
      live.textContent = 'Paused while this tab is hidden';
      live.dataset.state = 'paused';
      return;
    }
    state.busy = true;
    try {
      const { order, children } = await load();
      const now = new Date().toLocaleTimeString();
      if (TERMINAL.includes(order.status)) {
        state.ended = true;
        live.textContent = `${order.status[0].toUpperCase()}${order.status.slice(1)}: final (${now})`;
        live.dataset.state = 'ended';
        return;
      }
      const seen = JSON.stringify([order.status, order.counts, order.actualCostUsd, children.items.map((r) => r.status)]);
      state.delay = seen === state.seen ? Math.min(SLOWEST, state.delay * 1.5) : FASTEST;
      state.seen = seen;
      const waiting = order.status === 'planned' ? 'Planned, not started' : order.status === 'attention' ? 'Needs attention' : 'Running';
      live.textContent = `${waiting} · checked ${now}`;
      live.dataset.state = 'live';
    } catch (err) {
      // A dropped request is tried again, more slowly; the sentence stays up until one succeeds.
      announce(err.message, 'error');
      state.delay = SLOWEST;
    } finally {
      state.busy = false;
    }
    const now = state.again;
    state.again = false;
    if (now) state.delay = FASTEST;
    state.timer = setTimeout(tick, now ? 0 : state.delay);
  };

  /** Now, and quickly after (an action was taken, or the tab came back into view). */
  function soon() {
    clearTimeout(state.timer);
    state.delay = FASTEST;
    // A settled order is not watched any more, but "Show more" still reads the next tiles.
    if (state.ended) load().catch((err) => announce(err.message, 'error'));
    else state.timer = setTimeout(tick, 0);
  }

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') soon();
  });
  await tick();
}
