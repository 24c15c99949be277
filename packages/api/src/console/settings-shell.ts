import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/**
 * The fixed skeletons of the settings pages (/console/settings/…): API keys, webhook endpoints and budgets.
 * Each page is its own URL so it can be linked to; assets/settings.js and the modules it names fill the
 * regions from the /v1 API, the same endpoints any client uses.
 */
export const SETTINGS_PAGES = [
  {
    view: 'api-keys',
    href: '/console/settings/api-keys',
    label: 'API keys',
    about: 'Keys for scripts and integrations; a secret is shown once.',
  },
  {
    view: 'webhooks',
    href: '/console/settings/webhooks',
    label: 'Webhooks',
    about: "Endpoints sent this workspace's run and order events, and what was delivered.",
  },
  {
    view: 'budgets',
    href: '/console/settings/budgets',
    label: 'Budgets',
    about: 'Spending limits on this workspace and its projects, with what is spent.',
  },
] as const;

export type SettingsView = 'settings' | (typeof SETTINGS_PAGES)[number]['view'];

export const isSettingsView = (view: string): view is SettingsView => view === 'settings' || SETTINGS_PAGES.some((p) => p.view === view);

function tabs(current: SettingsView) {
  return html`<nav class="tabs" aria-label="Settings">${SETTINGS_PAGES.map(
    (p) => html`<a href="${p.href}"${p.view === current ? html` aria-current="page"` : ''}>${p.label}</a>`,
  )}</nav>`;
}

function overview() {
  return html`<div class="pane-head"><h1>Settings</h1></div>
${tabs('settings')}
<ul class="plain settings-index">${SETTINGS_PAGES.map(
    (p) => html`<li class="card"><h2><a href="${p.href}">${p.label}</a></h2><p class="muted">${p.about}</p></li>`,
  )}</ul>`;
}

function apiKeys() {
  return html`<div class="pane-head"><h1>API keys</h1></div>
${tabs('api-keys')}
<form id="key-create" class="inline card">
  <label>Name <input name="name" required maxlength="200" autocomplete="off"></label>
  <label class="check"><input type="checkbox" name="bound"> Only this workspace</label>
  <button type="submit" class="primary">Create key</button>
</form>
<section id="key-secret" class="card secret" hidden aria-live="polite"></section>
<div id="keys-table"></div>
<p class="muted small">The API lists live keys only: a revoked key stops working at once and leaves this list.</p>`;
}

function webhooks() {
  return html`<div class="pane-head"><h1>Webhook endpoints</h1></div>
${tabs('webhooks')}
<form id="endpoint-create" class="card stack">
  <label>URL <input name="url" type="url" required placeholder="https://example.com/hooks/atelier" spellcheck="false"></label>
  <fieldset id="endpoint-events" class="events-pick"><legend>Events</legend></fieldset>
  <label>Description <input name="description" maxlength="500"></label>
  <button type="submit" class="primary">Add endpoint</button>
</form>
<section id="endpoint-secret" class="card secret" hidden aria-live="polite"></section>
<div id="endpoints-table"></div>
<section id="deliveries" class="card" hidden aria-labelledby="deliveries-heading"></section>`;
}

function budgets() {
  return html`<div class="pane-head"><h1>Budgets</h1></div>
${tabs('budgets')}
<div id="budgets-table"></div>
<form id="budget-edit" class="card budget-form" hidden aria-labelledby="budget-edit-heading"></form>
<form id="budget-create" class="card budget-form" aria-labelledby="budget-create-heading"></form>
<p class="muted small">The API has no way to delete a budget: change its limit or enforcement instead.</p>`;
}

/** What `html` makes: markup, or its promise when a part of it is one. */
export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

const SETTINGS_BODIES: Record<SettingsView, () => Markup> = { settings: overview, 'api-keys': apiKeys, webhooks, budgets };

export const settingsBody = (view: SettingsView) => SETTINGS_BODIES[view]();
