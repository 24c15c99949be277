// Runs: the workspace's recent runs, and one run live — its status, steps, costs, errors, artifact and
// decisions, kept current by the run's event stream (GET /v1/runs/{id}/events).
import { TERMINAL_RUN_STATUSES, api, followRunEvents, inWorkspace } from './api.js';
import { artifactView, costView, qaView } from './artifact.js';
import { $, announce, badge, duration, facts, fill, h, orderLink, runLink, table, tagList, time, usd } from './dom.js';

export async function runsPage() {
  const select = $('#runs-status');
  const search = new URLSearchParams(location.search);
  select.value = search.get('status') ?? '';
  // A tag followed from a run (/console/runs?tag=…): only runs carrying every such tag.
  const tags = search.getAll('tag');
  let timer;
  const load = async () => {
    clearTimeout(timer);
    try {
      const page = await api('GET', `/v1/runs?${inWorkspace({ status: select.value, tag: tags, limit: 50 })}`);
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
              `${page.total} run${page.total === 1 ? '' : 's'}${select.value ? ` with status ${select.value}` : ''}${
                tags.length ? ` tagged ${tags.join(', ')}` : ''
              }, newest first`,
            )
          : h('p', { class: 'muted' }, 'No runs here yet.'),
      );
      // Runs still moving: look again in a few seconds (the list has no stream of its own).
      if (page.items.some((r) => !TERMINAL_RUN_STATUSES.includes(r.status))) timer = setTimeout(load, 4000);
    } catch (err) {
      announce(err.message, 'error');
    }
  };
  select.addEventListener('change', () => {
    const url = new URL(location.href);
    if (select.value) url.searchParams.set('status', select.value);
    else url.searchParams.delete('status');
    history.replaceState(null, '', url);
    load();
  });
  await load();
}

function stepsView(run) {
  const steps = run.runSteps ?? [];
  if (!steps.length) return h('p', { class: 'muted' }, 'No steps recorded yet.');
  return table(
    ['#', 'Step', 'Kind', 'Status', 'Model', 'Time', 'Cost'],
    steps.map((s, i) => [
      String(i + 1),
      h('span', {}, s.name, s.error ? h('span', { class: 'error small block' }, s.error) : null),
      s.kind ?? '',
      badge(s.status),
      [s.provider, s.model].filter(Boolean).join(' / ') || '—',
      duration(s.durationMs),
      usd(s.costActualUsd, run.totalCosts?.currency),
    ]),
    'Steps',
  );
}

function errorView(run) {
  if (!run.error && !run.errorCode && !run.notExecutedReason) return null;
  return h(
    'section',
    { class: 'card failure', role: 'alert', 'aria-label': 'Error' },
    h('h3', {}, 'Error', run.errorCode ? h('code', { class: 'small' }, ` ${run.errorCode}`) : null),
    run.error ? h('p', {}, run.error) : null,
    run.notExecutedReason ? h('p', {}, run.notExecutedReason) : null,
    run.failureDetails ? h('pre', { class: 'json' }, JSON.stringify(run.failureDetails, null, 2)) : null,
  );
}

function decisionsView(run) {
  if (!run.decisions?.length) return null;
  return h(
    'section',
    { 'aria-label': 'Decisions' },
    h('h3', {}, 'Decisions'),
    h(
      'ul',
      { class: 'plain' },
      run.decisions.map((d) =>
        h(
          'li',
          {},
          badge(d.decision),
          ' ',
          time(d.when),
          ` by ${d.who} (${d.via})`,
          d.note ? h('q', {}, d.note) : null,
          d.patch ? h('code', { class: 'small' }, ` ${JSON.stringify(d.patch)}`) : null,
        ),
      ),
    ),
  );
}

/** The run's metadata, one `key: value` a line, under one label (a key could read like one of the facts). */
function metadataView(metadata) {
  const entries = Object.entries(metadata ?? {});
  if (!entries.length) return '';
  return h(
    'ul',
    { class: 'plain metadata' },
    entries.map(([key, value]) => h('li', {}, h('code', {}, key), ': ', value)),
  );
}

function summary(run) {
  return facts([
    ['Status', badge(run.status)],
    ['Workflow', `${run.templateName} (${run.templateId} ${run.workflowVersion})`],
    ['Created', time(run.createdAt)],
    ['Finished', run.finishedAt ? time(run.finishedAt) : ''],
    ['Order', run.parentOrderId ? orderLink(run.parentOrderId) : ''],
    ['Parent run', run.parentRunId ? runLink(run.parentRunId) : ''],
    ['Created via', run.apiKeyName ? `${run.createdVia} (${run.apiKeyName})` : run.createdVia],
    ['Tags', tagList(run.tags)],
    ['Metadata', metadataView(run.metadata)],
    [
      'Waiting on',
      run.status === 'review' && run.reviewGate ? h('a', { href: '/console/queue' }, `${run.reviewGate.name} (review queue)`) : '',
    ],
  ]);
}

export async function runPage(runId) {
  const view = $('#run-view');
  const live = $('#run-live');
  const log = h('ol', { class: 'events small', 'aria-label': 'Events' });
  let run;
  let artifact;
  let artifactId;
  // A text step's answer as the model writes it (step.output.delta events), shown until the step ends.
  const writing = h('pre', { class: 'json live-output' });
  let writingStep;
  const render = () => {
    fill(
      view,
      h(
        'div',
        { class: 'detail-grid' },
        h(
          'div',
          {},
          summary(run),
          errorView(run),
          stepsView(run),
          writingStep
            ? h(
                'section',
                { 'aria-label': 'Live output' },
                h('h3', {}, `Writing: ${run.runSteps?.[writingStep.stepIndex]?.name ?? writingStep.stepId}`),
                writing,
              )
            : null,
          decisionsView(run),
        ),
        h('div', { class: 'side' }, costView(run)),
      ),
      artifact ? h('div', { class: 'detail-grid' }, artifactView(artifact), h('div', { class: 'side' }, qaView(artifact.qa))) : null,
      h('section', { 'aria-label': 'Event stream' }, h('h3', {}, 'Events'), log),
    );
  };
  const loadArtifact = async () => {
    if (!run.artifactId || run.artifactId === artifactId) return;
    artifactId = run.artifactId;
    artifact = await api('GET', `/v1/artifacts/${encodeURIComponent(artifactId)}`);
    render();
  };
  let pending;
  // A transition arrives as a small event; the run read after it carries the steps and costs.
  const refresh = () => {
    if (pending) return;
    pending = setTimeout(async () => {
      pending = undefined;
      run = await api('GET', `/v1/runs/${encodeURIComponent(runId)}`);
      render();
      await loadArtifact();
    }, 150);
  };
  const onEvent = ({ type, data }) => {
    if (type === 'step.output.delta') {
      // Pieces of one attempt and answer add up; a new one starts over (the earlier was discarded).
      const w = writingStep;
      if (!w || w.stepIndex !== data.stepIndex || w.attempt !== data.attempt || w.answer !== data.answer) {
        writingStep = { stepIndex: data.stepIndex, stepId: data.stepId, attempt: data.attempt, answer: data.answer };
        writing.textContent = '';
        if (run) render();
      }
      writing.textContent += data.text;
      return;
    }
    if (writingStep && type !== 'step.started' && type.startsWith('step.') && data.stepIndex === writingStep.stepIndex) {
      writingStep = undefined;
      writing.textContent = '';
    }
    const at = data.at ? new Date(data.at).toLocaleTimeString() : new Date().toLocaleTimeString();
    const what = data.status ?? data.name ?? data.artifactId ?? '';
    log.append(h('li', {}, h('span', { class: 'muted' }, at), ` ${type} `, what ? h('strong', {}, String(what)) : null));
    if (type === 'snapshot') {
      run = data;
      render();
      loadArtifact().catch((err) => announce(err.message, 'error'));
    } else refresh();
  };
  const states = { live: 'live', reconnecting: 'reconnecting…', ended: 'final', error: 'stream unavailable' };
  try {
    await followRunEvents(runId, onEvent, {
      onState: (s, err) => {
        live.textContent = `Status stream: ${states[s] ?? s}`;
        live.dataset.state = s;
        if (err) announce(err.message, 'error');
      },
    });
  } catch (err) {
    announce(err.message, 'error');
  }
}
