// Building the page: elements are made with createElement and text nodes only (never innerHTML), so
// whatever the API returns (titles, notes, report text, error messages) is shown as text, never run.

/**
 * h('a', { href, class: 'x', onclick }, 'text', child, [more]) — props starting with `on` are
 * listeners, `style` is an object of CSS properties, `false`/`null`/`undefined` props are left out,
 * `true` sets an empty attribute.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
    else if (name === 'style') Object.assign(el.style, value);
    else if (name === 'value' || name === 'checked') el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function usd(value, currency = 'USD') {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  const digits = Math.abs(value) < 1 && value !== 0 ? 4 : 2;
  return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    value,
  );
}

export function duration(ms) {
  if (typeof ms !== 'number') return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A timestamp as a <time> element: local date and time, ISO in its datetime attribute. */
export function time(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return h('time', { datetime: iso, title: iso }, d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
}

/** How long ago, for queue waiting times. */
export function ago(iso) {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

export function badge(status) {
  return h('span', { class: `badge s-${String(status).replace(/[^a-z_]/g, '')}` }, String(status).replace('_', ' '));
}

/**
 * A run's tags, each a link to the run list filtered on it; '' when there are none (facts skip it).
 * Tags are of [A-Za-z0-9_.:-] (contracts/run-tags.ts), shown as text all the same.
 */
export function tagList(tags) {
  if (!tags?.length) return '';
  return h(
    'span',
    { class: 'tags' },
    tags.map((t) => h('a', { class: 'tag', href: `/console/runs?tag=${encodeURIComponent(t)}` }, t)),
  );
}

/** A definition list from [label, value] pairs (values may be nodes); empty values are skipped. */
export function facts(pairs) {
  return h(
    'dl',
    { class: 'facts' },
    pairs.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
  );
}

/** A table from column headers and rows of cells (strings or nodes). */
export function table(headers, rows, caption) {
  return h(
    'table',
    {},
    caption ? h('caption', {}, caption) : null,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map((x) => h('th', { scope: 'col' }, x)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((cells) =>
        h(
          'tr',
          {},
          cells.map((c) => h('td', {}, c)),
        ),
      ),
    ),
  );
}

/** The polite status line under the header: decisions made, reloads, errors. */
export function announce(message, kind = 'info') {
  const el = $('#status');
  if (!el) return;
  el.className = `status ${kind}`;
  el.textContent = message;
}

export const link = (href, text) => h('a', { href }, text);

export const runLink = (id) => link(`/console/runs/${encodeURIComponent(id)}`, id);

export const orderLink = (id) => link(`/console/orders/${encodeURIComponent(id)}`, id);

/** "question [yes] [no]" in `slot`; `no` puts `start` back. The yes button is disabled while `act` runs. */
export function ask(slot, start, question, yesLabel, act, { danger = false, noLabel = 'Not now' } = {}) {
  const no = h('button', { type: 'button', onclick: () => fill(slot, start()) }, noLabel);
  const yes = h(
    'button',
    {
      type: 'button',
      class: danger ? 'danger' : 'primary',
      onclick: async () => {
        yes.disabled = true;
        no.disabled = true;
        try {
          await act();
        } catch (err) {
          announce(err.message, 'error');
          fill(slot, start());
        }
      },
    },
    yesLabel,
  );
  fill(slot, h('span', { class: 'small question' }, question, ' '), yes, ' ', no);
  // Enter right after the first press must not destroy anything: a dangerous question starts on "no".
  (danger ? no : yes).focus();
}
