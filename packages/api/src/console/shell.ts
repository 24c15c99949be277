import { html } from 'hono/html';
import { RUN_STATUS_VALUES } from '@atelier/contracts/run-statuses';
import { type Markup, type SettingsView, isSettingsView, settingsBody } from './settings-shell.js';

/**
 * The server-rendered part of each console page: the document, the header with its navigation, and
 * the fixed skeleton of the view (headings, forms, empty regions). Values go through `html`, which
 * escapes them; the client script (assets/main.js) fills the regions from the /v1 API.
 */
export type ConsoleView = 'signin' | 'queue' | 'runs' | 'run' | 'orders' | 'order' | SettingsView;

const TITLES: Record<ConsoleView, string> = {
  signin: 'Sign in',
  queue: 'Review queue',
  runs: 'Runs',
  run: 'Run',
  orders: 'Orders',
  order: 'Order',
  settings: 'Settings',
  'api-keys': 'API keys',
  webhooks: 'Webhook endpoints',
  budgets: 'Budgets',
};

const SECTIONS = [
  { href: '/console/queue', label: 'Queue', views: ['queue'] },
  { href: '/console/runs', label: 'Runs', views: ['runs', 'run'] },
  { href: '/console/orders', label: 'Orders', views: ['orders', 'order'] },
  { href: '/console/settings', label: 'Settings', views: ['settings', 'api-keys', 'webhooks', 'budgets'] },
] as const;

function header(view: ConsoleView) {
  if (view === 'signin')
    return html`<header class="top"><span class="brand">Atelier</span><span class="muted">review console</span></header>`;
  const links = SECTIONS.map(
    (s) =>
      html`<a href="${s.href}"${(s.views as readonly string[]).includes(view) ? html` aria-current="page"` : ''}>${s.label}${
        s.href === '/console/queue' ? html` <span class="count" id="queue-count"></span>` : ''
      }</a>`,
  );
  return html`<header class="top">
  <a class="brand" href="/console/queue">Atelier</a>
  <nav aria-label="Console">${links}</nav>
  <div class="who">
    <label>Workspace <select id="workspace-select" aria-describedby="who"></select></label>
    <span id="who" class="muted"></span>
    <button type="button" id="sign-out">Sign out</button>
  </div>
</header>`;
}

function signIn() {
  return html`<div class="signin">
  <h1>Sign in to review</h1>
  <form id="login-form" class="card stack">
    <h2>With your account</h2>
    <label>Email <input name="email" type="email" autocomplete="username" required></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
    <button type="submit" class="primary">Sign in</button>
  </form>
  <form id="key-form" class="card stack">
    <h2>Or with an API key</h2>
    <label>API key <input name="key" autocomplete="off" spellcheck="false" placeholder="atl_…" required></label>
    <button type="submit">Use this key</button>
  </form>
  <p id="signin-error" class="error" role="alert"></p>
  <section id="workspace-picker" class="card" hidden aria-labelledby="pick-heading">
    <h2 id="pick-heading">Pick a workspace</h2>
    <ul id="workspace-list" class="plain"></ul>
  </section>
  <p class="muted small">The console keeps your token in this tab only (sessionStorage) and talks to this gateway's /v1 API.</p>
</div>`;
}

function queue() {
  return html`<div class="split">
  <section class="list-pane" aria-labelledby="queue-heading">
    <div class="pane-head">
      <h1 id="queue-heading">Review queue</h1>
      <button type="button" id="queue-refresh" title="Reload the queue (g)">Reload</button>
    </div>
    <form id="bulk-form" class="bulk" hidden>
      <span id="bulk-count"></span>
      <label class="grow">Note <input name="note" maxlength="10000" placeholder="Note for every selected run"></label>
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="request_changes">Request changes</button>
      <button type="submit" name="decision" value="reject" class="danger">Reject</button>
    </form>
    <ol id="queue-list" class="items" aria-label="Runs waiting for review"></ol>
    <p class="muted small keys">Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>x</kbd> select, <kbd>a</kbd> approve,
      <kbd>c</kbd> request changes, <kbd>r</kbd> reject, <kbd>g</kbd> reload.</p>
  </section>
  <section id="queue-detail" class="detail-pane" aria-label="Selected item" tabindex="-1"></section>
</div>`;
}

function runs() {
  return html`<div class="pane-head"><h1>Runs</h1></div>
<form id="runs-filters" class="inline filters" role="search" aria-label="Filter runs">
  <label>Workflow <select name="workflow" id="runs-workflow"><option value="">any</option></select></label>
  <label>Status <select name="status" id="runs-status"><option value="">any</option>${RUN_STATUS_VALUES.map((s) => html`<option>${s}</option>`)}</select></label>
  <label>Tag <input name="tag" id="runs-tag" spellcheck="false" placeholder="any"></label>
  <label>From <input type="date" name="from" id="runs-from"></label>
  <label>To <input type="date" name="to" id="runs-to"></label>
  <label>Search <input type="search" name="q" id="runs-search" maxlength="200" spellcheck="false" placeholder="id, workflow or tag"></label>
  <button type="submit">Filter</button>
</form>
<div id="runs-table"></div>`;
}

/** `execution`: the run's page in the Temporal Web UI, when the gateway knows the UI (ATELIER_TEMPORAL_UI_URL). */
function run(id: string, execution?: string) {
  return html`<div class="pane-head"><h1>Run <code>${id}</code></h1><div id="run-actions" class="run-actions"></div><span id="run-live" class="muted small"></span></div>
<div id="run-view" class="run-view"${execution ? html` data-temporal-url="${execution}"` : ''}></div>`;
}

function orders() {
  return html`<div class="pane-head"><h1>Orders</h1></div>
<form id="order-open" class="inline">
  <label>Order id <input name="id" required spellcheck="false"></label>
  <button type="submit">Open</button>
</form>
<h2>Recent orders</h2>
<div id="orders-table"></div>`;
}

function order(id: string) {
  return html`<div class="pane-head"><h1>Order <code>${id}</code></h1><span id="order-live" class="muted small"></span></div>
<div id="order-view"></div>`;
}

/** Each page's body; a page of one run or order is given its id (and a run, the execution asked for). */
const BODIES: Record<Exclude<ConsoleView, SettingsView>, (id: string, execution?: string) => Markup> = {
  signin: signIn,
  queue,
  runs,
  run,
  orders,
  order,
};

const body = (view: ConsoleView, id: string, execution?: string) =>
  isSettingsView(view) ? settingsBody(view) : BODIES[view](id, execution);

export function consolePage(view: ConsoleView, id = '', execution?: string) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLES[view]} · Atelier console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<link rel="stylesheet" href="/console/assets/views.css">
${isSettingsView(view) ? html`<link rel="stylesheet" href="/console/assets/settings.css">\n` : ''}<script type="module" src="/console/assets/main.js"></script>
</head>
<body data-view="${view}" data-id="${id}">
<a class="skip" href="#main">Skip to content</a>
${header(view)}
<main id="main" tabindex="-1">
<p id="status" class="status" role="status" aria-live="polite"></p>
${body(view, id, execution)}
</main>
<noscript><p class="error">The review console needs JavaScript; the API itself is documented at <a href="/docs">/docs</a>.</p></noscript>
</body>
</html>`;
}

/**
 * Any other path under /console: a page rather than the API's JSON 404, since a person followed a link or
 * typed it. No script: it needs no data, and it must not send a signed-out visitor to sign in first.
 */
export function notFoundPage(path: string) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · Atelier console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
</head>
<body data-view="not-found">
<header class="top"><a class="brand" href="/console/queue">Atelier</a><span class="muted">review console</span></header>
<main id="main" class="not-found">
<h1>Page not found</h1>
<p>The console has no page at <code>${path}</code>.</p>
<p><a href="/console/queue">Back to the review queue</a> · <a href="/console/settings">Settings</a></p>
</main>
</body>
</html>`;
}
