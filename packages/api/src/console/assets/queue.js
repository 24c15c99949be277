// The review queue: the runs waiting for a decision (oldest first) on the left, the selected one on the
// right with its artifact, QA checks, cost and decision form; checkboxes for bulk decisions; j/k/x/a/c/r/g.
import { api, inWorkspace } from './api.js';
import { artifactView, costView, qaView } from './artifact.js';
import { decideMany, decisionForm, pressDecision } from './decision.js';
import { $, ago, announce, fill, h, runLink } from './dom.js';

const state = { items: [], total: 0, current: -1, checked: new Set(), shown: undefined };

const list = () => $('#queue-list');
const detail = () => $('#queue-detail');

function setCount(total) {
  const badge = $('#queue-count');
  if (badge) badge.textContent = total ? String(total) : '';
}

function qaSummary(qa) {
  const checks = qa?.checks ?? [];
  const failing = checks.filter((c) => c.status === 'fail').length;
  const pending = checks.filter((c) => c.status === 'pending').length;
  if (failing) return h('span', { class: 'qa-tag bad' }, `QA: ${failing} failing`);
  if (pending) return h('span', { class: 'qa-tag warn' }, `QA: ${pending} pending`);
  return h('span', { class: 'qa-tag ok' }, checks.length ? 'QA passed' : 'no QA');
}

/** What the item is: its artifact's title or run id, then the intake values that tell it from its siblings. */
const label = (item) => [item.artifactTitle ?? item.runId, item.intakeSummary].filter(Boolean).join(' — ');

function renderList() {
  const items = state.items.map((item, index) =>
    h(
      'li',
      { class: index === state.current ? 'item current' : 'item', 'data-run-id': item.runId },
      h('input', {
        type: 'checkbox',
        'aria-label': `Select ${label(item)} for a bulk decision`,
        checked: state.checked.has(item.runId),
        onchange: (e) => toggle(item.runId, e.target.checked),
      }),
      h(
        'button',
        { type: 'button', class: 'pick', 'aria-current': index === state.current ? 'true' : null, onclick: () => select(index) },
        h('span', { class: 'title' }, item.artifactTitle ?? item.runId),
        // Two runs of one workflow share a title; their intake (the topic, the product) tells them apart.
        item.intakeSummary ? h('span', { class: 'intake-summary', title: item.intakeSummary }, item.intakeSummary) : null,
        h(
          'span',
          { class: 'meta' },
          `${item.templateName} · `,
          h('span', { class: 'gate', title: 'The gate that holds it' }, item.gateName ?? item.gateId ?? 'review'),
          ` · waiting ${ago(item.enteredReviewAt)}`,
        ),
        h('span', { class: 'meta' }, qaSummary(item.qa), item.holdFields?.length ? h('span', { class: 'qa-tag hold' }, 'hold') : null),
      ),
    ),
  );
  fill(list(), items.length ? items : h('li', { class: 'empty muted' }, 'Nothing is waiting for review.'));
  renderBulk();
}

function renderBulk() {
  const form = $('#bulk-form');
  form.hidden = state.checked.size === 0;
  $('#bulk-count').textContent = `${state.checked.size} selected`;
}

function toggle(runId, on) {
  if (on) state.checked.add(runId);
  else state.checked.delete(runId);
  renderBulk();
}

async function select(index, { focus = true } = {}) {
  if (!state.items.length) {
    state.current = -1;
    state.shown = undefined;
    renderList();
    fill(detail(), h('p', { class: 'muted empty' }, 'Select an item to review it.'));
    return;
  }
  state.current = Math.max(0, Math.min(index, state.items.length - 1));
  renderList();
  const item = state.items[state.current];
  if (focus) list().querySelectorAll('button.pick')[state.current]?.focus();
  if (state.shown === item.runId) return;
  state.shown = item.runId;
  fill(detail(), h('p', { class: 'muted' }, 'Loading…'));
  try {
    const [run, artifact] = await Promise.all([
      api('GET', `/v1/runs/${encodeURIComponent(item.runId)}`),
      item.artifactId ? api('GET', `/v1/artifacts/${encodeURIComponent(item.artifactId)}`) : null,
    ]);
    if (state.shown !== item.runId) return;
    fill(
      detail(),
      h(
        'p',
        { class: 'muted small detail-head' },
        item.templateName,
        item.intakeSummary ? ` · ${item.intakeSummary}` : '',
        ' · run ',
        runLink(item.runId),
        ' · gate ',
        item.gateName ?? item.gateId ?? '—',
        ` · waiting ${ago(item.enteredReviewAt)}`,
      ),
      h(
        'div',
        { class: 'detail-grid' },
        h('div', {}, artifact ? artifactView(artifact) : h('p', { class: 'muted' }, 'This run produced no artifact.')),
        h('div', { class: 'side' }, decisionForm(item, decided), qaView(artifact?.qa ?? item.qa), costView(run)),
      ),
    );
  } catch (err) {
    if (state.shown === item.runId) fill(detail(), h('p', { class: 'error', role: 'alert' }, err.message));
  }
}

const PAST = { approve: 'Approved', reject: 'Rejected', request_changes: 'Changes requested on' };

function removeDecided(runIds) {
  const gone = new Set(runIds);
  const before = state.current;
  state.items = state.items.filter((i) => !gone.has(i.runId));
  state.total = Math.max(0, state.total - gone.size);
  for (const id of gone) state.checked.delete(id);
  setCount(state.total);
  state.shown = undefined;
  return select(Math.min(before, state.items.length - 1));
}

function decided(item, decision) {
  announce(`${PAST[decision]} ${label(item)} (${item.runId}).`, 'ok');
  removeDecided([item.runId]);
}

async function load() {
  try {
    const page = await api('GET', `/v1/queue?${inWorkspace({ limit: 100 })}`);
    const keep = state.items[state.current]?.runId;
    state.items = page.items;
    state.total = page.total;
    state.checked = new Set([...state.checked].filter((id) => page.items.some((i) => i.runId === id)));
    setCount(page.total);
    const again = page.items.findIndex((i) => i.runId === keep);
    await select(Math.max(again, 0), { focus: false });
    if (page.total > page.items.length) announce(`Showing the ${page.items.length} longest-waiting of ${page.total}.`);
  } catch (err) {
    announce(err.message, 'error');
  }
}

async function bulk(event) {
  event.preventDefault();
  const decision = event.submitter?.value;
  const chosen = state.items.filter((i) => state.checked.has(i.runId));
  if (!decision || !chosen.length) return;
  const note = String(new FormData(event.target).get('note') ?? '').trim();
  try {
    const { decided: done, failed } = await decideMany(chosen, decision, note);
    const parts = [`${PAST[decision]} ${done.length} of ${chosen.length}.`];
    for (const f of failed) parts.push(`${f.runId}: ${f.message}`);
    announce(parts.join(' '), failed.length ? 'error' : 'ok');
    event.target.reset();
    await removeDecided(done);
  } catch (err) {
    announce(err.message, 'error');
  }
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest('input, textarea, select, [contenteditable]')) return;
  const item = state.items[state.current];
  const form = detail().querySelector('form.decision');
  switch (event.key) {
    case 'j':
      select(state.current + 1);
      break;
    case 'k':
      select(state.current - 1);
      break;
    case 'x':
      if (item) {
        toggle(item.runId, !state.checked.has(item.runId));
        renderList();
        list().querySelectorAll('button.pick')[state.current]?.focus();
      }
      break;
    case 'a':
    case 'c':
    case 'r':
      pressDecision(form, event.key);
      break;
    case 'g':
      load();
      break;
    default:
      return;
  }
  event.preventDefault();
}

export function queuePage() {
  $('#queue-refresh').addEventListener('click', load);
  $('#bulk-form').addEventListener('submit', bulk);
  document.addEventListener('keydown', onKey);
  return load();
}
