// Settings › Webhooks: the workspace's webhook endpoints (GET /v1/webhook-endpoints) with their delivery
// health, a new endpoint whose signing secret the API returns once, a test send (POST …/test), deleting
// one, and an endpoint's recent deliveries with every attempt and its status code (GET …/deliveries).
import { api, inWorkspace, session } from './api.js';
import { $, announce, badge, fill, h, table, time } from './dom.js';
import { confirmButton, loadInto, onSubmit, showSecretOnce } from './settings.js';

// The contract's WEBHOOK_EVENT_TYPES (packages/contracts/src/webhook-endpoints.ts): the API has no call that
// lists them, and a plain module cannot import the contracts package. `*` also takes types added later.
const EVENT_TYPES = [
  'run.completed',
  'run.failed',
  'run.review',
  'run.cancelled',
  'order.completed',
  'order.attention',
  'order.failed',
  'order.cancelled',
];
const ALL_EVENTS = '*';

const endpointPath = (id, tail = '') => `/v1/webhook-endpoints/${encodeURIComponent(id)}${tail}`;

function health(endpoint) {
  const d = endpoint.deliveryHealth ?? {};
  const last = d.lastAttemptAt ? [' · last ', d.lastStatusCode ?? 'no answer', ' at ', time(d.lastAttemptAt)] : [];
  return h('span', {}, badge(d.status ?? 'unknown'), ...last, d.consecutiveFailures ? ` · ${d.consecutiveFailures} failing in a row` : '');
}

function attempts(delivery) {
  if (!delivery.attempts?.length) return h('span', { class: 'muted' }, 'not tried yet');
  return h(
    'ol',
    { class: 'attempts' },
    delivery.attempts.map((a) =>
      h(
        'li',
        { class: `a-${a.outcome}` },
        h('strong', {}, a.statusCode ?? 'no answer'),
        ` ${a.outcome} · ${a.durationMs} ms · `,
        time(a.attemptedAt),
        a.error ? h('span', { class: 'error small block' }, a.error) : null,
      ),
    ),
  );
}

/** An endpoint's newest deliveries; read again while one is still pending (a test send on its way). */
async function showDeliveries(endpoint) {
  const box = $('#deliveries');
  box.hidden = false;
  box.dataset.endpointId = endpoint.id;
  const list = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  fill(
    box,
    h('h2', { id: 'deliveries-heading' }, 'Recent deliveries to ', h('code', {}, endpoint.url)),
    h('button', { type: 'button', onclick: () => showDeliveries(endpoint) }, 'Reload'),
    list,
  );
  for (let round = 0; round < 15 && box.dataset.endpointId === endpoint.id; round++) {
    let pending = false;
    await loadInto(list, async () => {
      const page = await api('GET', `${endpointPath(endpoint.id, '/deliveries')}?limit=20`);
      pending = page.items.some((d) => d.status === 'pending');
      return page.items.length
        ? table(
            ['Message', 'Event', 'Status', 'Attempts', 'Created', 'Last error'],
            page.items.map((d) => [
              h('code', { class: 'small' }, d.messageId),
              d.type,
              badge(d.status),
              attempts(d),
              time(d.createdAt),
              d.lastError ? h('span', { class: 'error small' }, d.lastError) : '',
            ]),
            `${page.total} deliver${page.total === 1 ? 'y' : 'ies'}, newest first`,
          )
        : h('p', { class: 'muted' }, 'Nothing has been sent to this endpoint yet. "Send test" sends an endpoint.test event.');
    });
    if (!pending) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function endpointRow(endpoint, reload) {
  const test = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        test.disabled = true;
        try {
          const sent = await api('POST', endpointPath(endpoint.id, '/test'));
          announce(`Sent a test event (${sent.messageId}); its delivery shows below.`, 'ok');
          await showDeliveries(endpoint);
          await reload(); // the endpoint's delivery health now counts the test
        } catch (err) {
          announce(err.message, 'error');
        } finally {
          test.disabled = false;
        }
      },
    },
    'Send test',
  );
  return [
    h(
      'span',
      {},
      h('code', {}, endpoint.url),
      endpoint.description ? h('span', { class: 'muted small block' }, endpoint.description) : null,
    ),
    endpoint.events.join(', '),
    endpoint.enabled ? 'yes' : h('span', { class: 'muted' }, 'disabled'),
    health(endpoint),
    time(endpoint.createdAt),
    h(
      'span',
      { class: 'row-actions' },
      h('button', { type: 'button', onclick: () => showDeliveries(endpoint) }, 'Deliveries'),
      test,
      confirmButton('Delete', 'Delete this endpoint? Nothing more is sent to it, retries included.', async () => {
        await api('DELETE', endpointPath(endpoint.id));
        if ($('#deliveries').dataset.endpointId === endpoint.id) $('#deliveries').hidden = true;
        announce(`Deleted the endpoint ${endpoint.url}.`, 'ok');
        await reload();
      }),
    ),
  ];
}

function eventChoices() {
  const all = h('input', { type: 'checkbox', name: 'events', value: ALL_EVENTS });
  all.defaultChecked = true; // checked again by the form's reset after a create
  return [
    h('label', {}, all, ' every event (', h('code', {}, '*'), ')'),
    EVENT_TYPES.map((type) => h('label', {}, h('input', { type: 'checkbox', name: 'events', value: type }), ' ', h('code', {}, type))),
  ];
}

export async function webhooksPage() {
  const target = $('#endpoints-table');
  const reload = () =>
    loadInto(target, async () => {
      const page = await api('GET', `/v1/webhook-endpoints?${inWorkspace({ limit: 100 })}`);
      return page.items.length
        ? table(
            ['URL', 'Events', 'Enabled', 'Delivery health', 'Created', ''],
            page.items.map((e) => endpointRow(e, reload)),
            `${page.total} endpoint${page.total === 1 ? '' : 's'}`,
          )
        : h('p', { class: 'muted' }, 'This workspace has no webhook endpoints.');
    });
  fill($('#endpoint-events'), h('legend', {}, 'Events'), eventChoices());
  onSubmit($('#endpoint-create'), async (data) => {
    const events = data.getAll('events').map(String);
    const description = String(data.get('description') ?? '').trim();
    const body = {
      workspaceId: session.workspaceId,
      url: String(data.get('url') ?? '').trim(),
      events: events.includes(ALL_EVENTS) ? [ALL_EVENTS] : events,
      ...(description ? { description } : {}),
    };
    if (!body.events.length) throw new Error('Pick at least one event.');
    const endpoint = await api('POST', '/v1/webhook-endpoints', body);
    $('#endpoint-create').reset();
    showSecretOnce($('#endpoint-secret'), {
      title: `Signing secret of ${endpoint.url}`,
      secret: endpoint.secret,
      use: 'Verify the webhook-signature header of every delivery with it (Standard Webhooks, see /docs).',
    });
    await reload();
  });
  await reload();
}
