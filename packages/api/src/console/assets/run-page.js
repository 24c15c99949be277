// One run live: what it was given, its timeline of steps, their outputs, costs, errors, artifact and
// decisions, the runs it is linked to, and Cancel / Rerun — kept current by the run's event stream
// (GET /v1/runs/{id}/events).
import { api, followRunEvents, inWorkspace } from './api.js';
import { artifactView, costView, qaView } from './artifact.js';
import { $, announce, badge, facts, fill, h, orderLink, runLink, tagList, time } from './dom.js';
import { runActions } from './run-actions.js';
import { intakeView, stepOutputsView, timelineView } from './run-steps.js';

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

const runLinks = (ids) =>
  ids?.length
    ? h(
        'span',
        { class: 'reruns' },
        ids.map((id, i) => [i ? ', ' : '', runLink(id)]),
      )
    : '';

/**
 * The run's execution in the Temporal Web UI: the shell carries its address when the gateway is told where
 * the UI is (ATELIER_TEMPORAL_UI_URL); otherwise there is no link. A new tab: the UI is another site.
 */
function executionLink() {
  const url = $('#run-view').dataset.temporalUrl;
  return url ? h('a', { class: 'temporal-link', href: url, target: '_blank', rel: 'noopener noreferrer' }, 'Temporal Web UI') : '';
}

function summary(run, reruns) {
  return facts([
    ['Status', badge(run.status)],
    ['Workflow', `${run.templateName} (${run.templateId} ${run.workflowVersion})`],
    ['Created', time(run.createdAt)],
    ['Finished', run.finishedAt ? time(run.finishedAt) : ''],
    ['Order', run.parentOrderId ? orderLink(run.parentOrderId) : ''],
    ['Parent run', run.parentRunId ? runLink(run.parentRunId) : ''],
    ['Rerun of', run.rerunOf ? h('span', { class: 'rerun-of' }, runLink(run.rerunOf)) : ''],
    ['Reruns', runLinks(reruns)],
    ['Execution', executionLink()],
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
  let reruns = [];
  // Which step outputs are open, across the redraws each event causes.
  const open = new Set();
  // A text step's answer as the model writes it (step.output.delta events), shown until the step ends.
  const writing = h('pre', { class: 'json live-output' });
  let writingStep;
  const render = () => {
    updateActions(run);
    fill(
      view,
      h(
        'div',
        { class: 'detail-grid' },
        h(
          'div',
          {},
          summary(run, reruns),
          errorView(run),
          intakeView(run.intake),
          timelineView(run),
          writingStep
            ? h(
                'section',
                { 'aria-label': 'Live output' },
                h('h3', {}, `Writing: ${run.runSteps?.[writingStep.stepIndex]?.name ?? writingStep.stepId}`),
                writing,
              )
            : null,
          stepOutputsView(run, open),
          decisionsView(run),
        ),
        h('div', { class: 'side' }, costView(run)),
      ),
      artifact ? h('div', { class: 'detail-grid' }, artifactView(artifact), h('div', { class: 'side' }, qaView(artifact.qa))) : null,
      h('section', { 'aria-label': 'Event stream' }, h('h3', {}, 'Events'), log),
    );
  };
  const updateActions = runActions($('#run-actions'), (after) => {
    run = after;
    render();
  });
  const loadArtifact = async () => {
    if (!run.artifactId || run.artifactId === artifactId) return;
    artifactId = run.artifactId;
    artifact = await api('GET', `/v1/artifacts/${encodeURIComponent(artifactId)}`);
    render();
  };
  // The runs made again from this one (GET /v1/runs?rerunOf=…), read once: a rerun made here leaves the page.
  api('GET', `/v1/runs?${inWorkspace({ rerunOf: runId, limit: 20 })}`)
    .then((page) => {
      reruns = page.items.map((r) => r.id);
      if (run && reruns.length) render();
    })
    .catch((err) => announce(err.message, 'error'));
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
