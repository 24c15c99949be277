// The run list: the workspace's recent runs, filtered by workflow, status and tag (by the API) and by a
// search over the shown page (the API has no text search). Filters live in the URL, so a filtered list
// can be linked and the back button returns to it.
import { TERMINAL_RUN_STATUSES, api, inWorkspace } from './api.js';
import { $, announce, badge, fill, h, orderLink, runLink, table, tagList, time, usd } from './dom.js';

const PAGE = 50;

/** The filters from the URL: workflow, status, tags (repeatable), search. */
function filtersOf(url) {
  const p = url.searchParams;
  return { workflow: p.get('workflow') ?? '', status: p.get('status') ?? '', tags: p.getAll('tag'), q: (p.get('q') ?? '').trim() };
}

/** A run matches the search when its id, workflow (id or name) or a tag contains it, case aside. */
function matches(run, q) {
  if (!q) return true;
  const needle = q.toLowerCase();
  return [run.id, run.templateId, run.templateName, ...(run.tags ?? [])].some((v) =>
    String(v ?? '')
      .toLowerCase()
      .includes(needle),
  );
}

function caption(shown, page, f) {
  const parts = [`${page.total} run${page.total === 1 ? '' : 's'}`];
  if (f.workflow) parts.push(`of ${f.workflow}`);
  if (f.status) parts.push(`with status ${f.status}`);
  if (f.tags.length) parts.push(`tagged ${f.tags.join(', ')}`);
  let text = `${parts.join(' ')}, newest first`;
  if (f.q) text += `; ${shown.length} of the ${page.items.length} shown match “${f.q}”`;
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
  form.elements.q.value = f.q;
  const workflows = fillWorkflows(form.elements.workflow, f.workflow);
  let timer;
  const load = async () => {
    clearTimeout(timer);
    try {
      const query = inWorkspace({ templateId: f.workflow, status: f.status, tag: f.tags, limit: PAGE });
      const page = await api('GET', `/v1/runs?${query}`);
      const shown = page.items.filter((r) => matches(r, f.q));
      fill(
        $('#runs-table'),
        page.items.length
          ? table(
              ['Run', 'Workflow', 'Status', 'Step', 'Cost', 'Created', 'Order', 'Tags'],
              shown.map((r) => [
                runLink(r.id),
                r.templateName,
                badge(r.status),
                r.runSteps?.length ? `${Math.min(r.currentStepIndex + 1, r.runSteps.length)} / ${r.runSteps.length}` : '—',
                usd(r.totalCosts?.actualUsd, r.totalCosts?.currency),
                time(r.createdAt),
                r.parentOrderId ? orderLink(r.parentOrderId) : '',
                tagList(r.tags),
              ]),
              caption(shown, page, f),
            )
          : h('p', { class: 'muted' }, f.workflow || f.status || f.tags.length ? 'No runs match these filters.' : 'No runs here yet.'),
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
    for (const name of ['workflow', 'status', 'q']) {
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
  for (const select of form.querySelectorAll('select')) select.addEventListener('change', apply);
  window.addEventListener('popstate', () => {
    f = filtersOf(new URL(location.href));
    form.elements.workflow.value = f.workflow;
    form.elements.status.value = f.status;
    form.elements.tag.value = f.tags.join(' ');
    form.elements.q.value = f.q;
    load();
  });
  await Promise.all([workflows, load()]);
}
