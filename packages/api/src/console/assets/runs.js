// The run list: the workspace's recent runs, filtered by workflow, status, tag, creation date and a search
// over run id, workflow and tags, all by the API, so a search finds runs past the page shown. Filters live
// in the URL, so a filtered list can be linked and the back button returns to it.
import { TERMINAL_RUN_STATUSES, api, inWorkspace } from './api.js';
import { $, announce, badge, fill, h, orderLink, runLink, table, tagList, time, usd } from './dom.js';

const PAGE = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` from the URL, or '' when it is not one (a hand-edited link), so no bad date reaches the API. */
const dayOf = (value) => (DAY.test(value ?? '') && !Number.isNaN(new Date(`${value}T00:00`).getTime()) ? value : '');

/** The filters from the URL: workflow, status, tags (repeatable), from and to (days, both included), search. */
function filtersOf(url) {
  const p = url.searchParams;
  return {
    workflow: p.get('workflow') ?? '',
    status: p.get('status') ?? '',
    tags: p.getAll('tag'),
    from: dayOf(p.get('from')),
    to: dayOf(p.get('to')),
    q: (p.get('q') ?? '').trim(),
  };
}

/**
 * The days as the API's instants: from the start of `from` to the start of the day after `to`, in the
 * browser's time zone, which is the one the list shows times in; so `to` is included, as a reader expects.
 */
function windowOf(f) {
  const start = (day) => new Date(`${day}T00:00`);
  const after = f.to ? start(f.to) : undefined;
  after?.setDate(after.getDate() + 1);
  return { createdAfter: f.from ? start(f.from).toISOString() : undefined, createdBefore: after?.toISOString() };
}

const filtered = (f) => Boolean(f.workflow || f.status || f.tags.length || f.from || f.to || f.q);

function caption(page, f) {
  const parts = [`${page.total} run${page.total === 1 ? '' : 's'}`];
  if (f.workflow) parts.push(`of ${f.workflow}`);
  if (f.status) parts.push(`with status ${f.status}`);
  if (f.tags.length) parts.push(`tagged ${f.tags.join(', ')}`);
  if (f.from && f.to) parts.push(`created ${f.from} to ${f.to}`);
  else if (f.from) parts.push(`created from ${f.from}`);
  else if (f.to) parts.push(`created up to ${f.to}`);
  if (f.q) parts.push(`matching “${f.q}”`);
  let text = `${parts.join(' ')}, newest first`;
  if (page.total > page.items.length) text += `; the ${page.items.length} newest shown`;
  return text;
}

/** Workflow choices from the catalog, plus the one in the URL if the catalog lacks it (a workspace's own). */
async function fillWorkflows(select, current) {
  try {
    const catalog = await api('GET', '/v1/catalog/workflows?limit=100');
    const ids = catalog.items.map((w) => [w.id, w.name ?? w.id]);
    if (current && !ids.some(([id]) => id === current)) ids.push([current, current]);
    select.append(...ids.map(([id, name]) => h('option', { value: id }, `${name} (${id})`)));
  } catch (err) {
    announce(err.message, 'error');
  }
  select.value = current;
}

export async function runsPage() {
  const form = $('#runs-filters');
  let f = filtersOf(new URL(location.href));
  form.elements.status.value = f.status;
  // One tag in the box; more arrive only from links (?tag=a&tag=b) and are kept as they are.
  form.elements.tag.value = f.tags.join(' ');
  form.elements.from.value = f.from;
  form.elements.to.value = f.to;
  form.elements.q.value = f.q;
  const workflows = fillWorkflows(form.elements.workflow, f.workflow);
  let timer;
  const load = async () => {
    clearTimeout(timer);
    try {
      const query = inWorkspace({ templateId: f.workflow, status: f.status, tag: f.tags, ...windowOf(f), q: f.q, limit: PAGE });
      const page = await api('GET', `/v1/runs?${query}`);
      fill(
        $('#runs-table'),
        page.items.length
          ? table(
              ['Run', 'Workflow', 'Status', 'Step', 'Cost', 'Created', 'Order', 'Tags'],
              page.items.map((r) => [
                runLink(r.id),
                r.templateName,
                badge(r.status),
                r.runSteps?.length ? `${Math.min(r.currentStepIndex + 1, r.runSteps.length)} / ${r.runSteps.length}` : '—',
                usd(r.totalCosts?.actualUsd, r.totalCosts?.currency),
                time(r.createdAt),
                r.parentOrderId ? orderLink(r.parentOrderId) : '',
                tagList(r.tags),
              ]),
              caption(page, f),
            )
          : h('p', { class: 'muted' }, filtered(f) ? 'No runs match these filters.' : 'No runs here yet.'),
      );
      // Runs still moving: look again in a few seconds (the list has no stream of its own).
      if (page.items.some((r) => !TERMINAL_RUN_STATUSES.includes(r.status))) timer = setTimeout(load, 4000);
    } catch (err) {
      announce(err.message, 'error');
    }
  };
  const apply = () => {
    const url = new URL(location.href);
    url.search = '';
    const data = new FormData(form);
    for (const name of ['workflow', 'status', 'from', 'to', 'q']) {
      const value = String(data.get(name) ?? '').trim();
      if (value) url.searchParams.set(name, value);
    }
    for (const tag of String(data.get('tag') ?? '')
      .split(/\s+/)
      .filter(Boolean))
      url.searchParams.append('tag', tag);
    // pushState: each filtering is a step the back button undoes.
    if (url.href !== location.href) history.pushState(null, '', url);
    f = filtersOf(url);
    load();
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply();
  });
  // A choice made is applied at once; typed text (tag, search) waits for Enter or Filter.
  for (const control of form.querySelectorAll('select, input[type="date"]')) control.addEventListener('change', apply);
  window.addEventListener('popstate', () => {
    f = filtersOf(new URL(location.href));
    form.elements.workflow.value = f.workflow;
    form.elements.status.value = f.status;
    form.elements.tag.value = f.tags.join(' ');
    form.elements.from.value = f.from;
    form.elements.to.value = f.to;
    form.elements.q.value = f.q;
    load();
  });
  await Promise.all([workflows, load()]);
}
