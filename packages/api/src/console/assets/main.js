// The console's entry point: signs in (login or API key), keeps the picked workspace, fills the header,
// and starts the page the server rendered (body[data-view]).
import { ApiError, api, apiWith, inWorkspace, session, toSignIn } from './api.js';
import { apiKeysPage } from './api-keys.js';
import { budgetsPage } from './budgets.js';
import { $, announce, fill, h } from './dom.js';
import { orderPage } from './order-page.js';
import { ordersPage } from './orders.js';
import { queuePage } from './queue.js';
import { runPage } from './run-page.js';
import { runsPage } from './runs.js';
import { webhooksPage } from './webhooks.js';

const { view, id } = document.body.dataset;

/** Where to go after signing in: only a console page of this origin (never an open redirect). */
function nextPage() {
  const next = new URLSearchParams(location.search).get('next') ?? '';
  return /^\/console\/[A-Za-z0-9/_-]*$/.test(next) ? next : '/console/queue';
}

async function showWorkspaces() {
  const picker = $('#workspace-picker');
  const workspaces = await api('GET', '/v1/workspaces?limit=100');
  // Nothing to choose between: go straight in.
  if (workspaces.items.length === 1) {
    session.pickWorkspace(workspaces.items[0].id);
    return location.assign(nextPage());
  }
  fill(
    $('#workspace-list'),
    workspaces.items.map((w) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: w.id === session.workspaceId ? 'workspace primary' : 'workspace',
            onclick: () => {
              session.pickWorkspace(w.id);
              location.assign(nextPage());
            },
          },
          h('strong', {}, w.name),
          h('span', { class: 'muted small' }, ` ${w.role}${w.personal ? ' · personal' : ''}`),
        ),
      ),
    ),
  );
  picker.hidden = false;
  for (const form of document.querySelectorAll('#login-form, #key-form')) form.hidden = true;
  picker.querySelector('button')?.focus();
}

function signInPage() {
  const error = $('#signin-error');
  const why = new URLSearchParams(location.search).get('why');
  if (why === 'expired') error.textContent = 'Your session has ended; sign in again.';
  const start = async (event, attempt) => {
    event.preventDefault();
    error.textContent = '';
    const button = event.target.querySelector('button');
    button.disabled = true;
    try {
      session.start(await attempt(new FormData(event.target)));
      await showWorkspaces();
    } catch (err) {
      session.clear();
      error.textContent = err instanceof ApiError && err.status === 401 ? `Not signed in: ${err.message}` : err.message;
    } finally {
      button.disabled = false;
    }
  };
  $('#login-form').addEventListener('submit', (event) =>
    start(event, async (data) => {
      const pair = await apiWith(null, 'POST', '/v1/auth/login', { email: data.get('email'), password: data.get('password') });
      return { token: pair.accessToken, refreshToken: pair.refreshToken, who: pair.user.email };
    }),
  );
  $('#key-form').addEventListener('submit', (event) =>
    start(event, async (data) => {
      const key = String(data.get('key') ?? '').trim();
      await apiWith(key, 'GET', '/v1/workspaces?limit=1'); // the key works, or this throws 401
      return { token: key, who: `API key ${key.slice(0, 8)}…` };
    }),
  );
  if (session.token) showWorkspaces().catch(() => session.clear());
  else $('#login-form input')?.focus();
}

async function header() {
  $('#who').textContent = session.who;
  $('#sign-out').addEventListener('click', async () => {
    // A session token is revoked on the gateway; an API key stays valid (revoke it under /v1/api-keys).
    if (!session.token?.startsWith('atl_')) await api('POST', '/v1/auth/logout').catch(() => undefined);
    session.clear();
    location.assign('/console');
  });
  const select = $('#workspace-select');
  const workspaces = await api('GET', '/v1/workspaces?limit=100');
  fill(
    select,
    workspaces.items.map((w) => h('option', { value: w.id }, w.name)),
  );
  select.value = session.workspaceId;
  select.addEventListener('change', () => {
    session.pickWorkspace(select.value);
    location.assign(view === 'run' || view === 'order' ? `/console/${view}s` : location.pathname);
  });
  if (view !== 'queue') {
    const { count } = await api('GET', `/v1/queue/count?${inWorkspace()}`);
    $('#queue-count').textContent = count ? String(count) : '';
  }
}

const PAGES = {
  queue: queuePage,
  runs: runsPage,
  run: runPage,
  orders: ordersPage,
  order: orderPage,
  'api-keys': apiKeysPage,
  webhooks: webhooksPage,
  budgets: budgetsPage,
};

async function boot() {
  if (view === 'signin') return signInPage();
  if (!session.token || !session.workspaceId) return toSignIn();
  try {
    await Promise.all([header(), PAGES[view]?.(id)]);
  } catch (err) {
    // A 401 has already left for the sign-in page (api.js).
    if (!(err instanceof ApiError && err.status === 401)) announce(err.message, 'error');
  }
}

boot();
