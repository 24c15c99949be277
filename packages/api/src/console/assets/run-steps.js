// What a run was given and what each step did: the intake as a key/value table, a timeline of the steps
// (status, start, duration, cost, with the total under it) and each step's input and recorded output.
import { badge, duration, h, runLink, table, usd } from './dom.js';

/** Past this many characters a value is cut, with a button that shows the rest. */
const CUT = 600;

/**
 * A value as a person reads it: text as text, anything else as pretty JSON; long ones cut with "show all"
 * (a whole report in one cell would push the timeline off the screen).
 */
export function valueView(value, cut = CUT) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const box = h('pre', { class: typeof value === 'string' ? 'text' : 'json' }, text.length > cut ? `${text.slice(0, cut)}…` : text);
  if (text.length <= cut) return box;
  const more = h(
    'button',
    {
      type: 'button',
      class: 'link show-all',
      onclick: () => {
        box.textContent = text;
        more.remove();
      },
    },
    `show all (${text.length.toLocaleString()} characters)`,
  );
  return h('div', { class: 'value' }, box, more);
}

/** A short value stays on its line; an object or long text gets the block view. */
function cell(value) {
  if (value === null || value === undefined) return h('span', { class: 'muted' }, '—');
  if (typeof value === 'string' && value.length <= 120 && !value.includes('\n')) return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return valueView(value, 300);
}

/** The run's intake (as sent, defaults applied), one field a row. */
export function intakeView(intake) {
  const entries = Object.entries(intake ?? {});
  return h(
    'section',
    { class: 'intake', 'aria-label': 'Intake' },
    h('h3', {}, 'Intake'),
    entries.length
      ? h(
          'table',
          { class: 'kv' },
          h(
            'tbody',
            {},
            entries.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, h('code', {}, k)), h('td', {}, cell(v)))),
          ),
        )
      : h('p', { class: 'muted small' }, 'No intake.'),
  );
}

/** The child run a subWorkflow step started: its output names it once settled; a failure's details before that. */
function childRunOf(run, step, index) {
  if (step.kind !== 'subWorkflow') return undefined;
  if (typeof step.output?.runId === 'string') return step.output.runId;
  const child = run.failureDetails?.childRunId;
  return typeof child === 'string' && run.currentStepIndex === index ? child : undefined;
}

/** A subWorkflow step records no duration of its own: its start to its settling is how long its child took. */
function stepDuration(step) {
  if (typeof step.durationMs === 'number') return step.durationMs;
  if (!step.startedAt || !step.finishedAt) return undefined;
  return Math.max(0, Date.parse(step.finishedAt) - Date.parse(step.startedAt));
}

const clock = (iso) => (iso ? h('time', { datetime: iso, title: iso }, new Date(iso).toLocaleTimeString()) : '—');

/** Each step with its status, start, duration and cost; the run's total at the bottom. */
export function timelineView(run) {
  const steps = run.runSteps ?? [];
  if (!steps.length) return h('p', { class: 'muted' }, 'No steps recorded yet.');
  const currency = run.totalCosts?.currency;
  const body = table(
    ['#', 'Step', 'Kind', 'Status', 'Model', 'Started', 'Duration', 'Cost'],
    steps.map((s, i) => {
      const child = childRunOf(run, s, i);
      return [
        String(i + 1),
        h(
          'span',
          {},
          s.name,
          child ? h('span', { class: 'small block child-run' }, 'child run ', runLink(child)) : null,
          s.error ? h('span', { class: 'error small block' }, s.error) : null,
        ),
        s.kind ?? '',
        badge(s.status),
        [s.provider, s.model].filter(Boolean).join(' / ') || '—',
        clock(s.startedAt),
        duration(stepDuration(s)),
        usd(s.costActualUsd, currency),
      ];
    }),
    'Timeline',
  );
  body.classList.add('timeline');
  body.append(
    h(
      'tfoot',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'row', colspan: '6' }, 'Total'),
        h('td', {}, duration(run.durationMs)),
        h('td', { class: 'total-cost' }, usd(run.totalCosts?.actualUsd, currency)),
      ),
    ),
  );
  return body;
}

/** A model step's input is its rendered prompt: shown as the text it is rather than as `{ "prompt": … }`. */
function inputValue(input) {
  const keys = input && typeof input === 'object' && !Array.isArray(input) ? Object.keys(input) : [];
  return keys.length === 1 && keys[0] === 'prompt' && typeof input.prompt === 'string' ? input.prompt : input;
}

/** One side of a step, what went in or what came out, under its label. */
function stepSide(cls, label, body) {
  return h('div', { class: `step-side ${cls}` }, h('h4', {}, label), body);
}

/**
 * Each step's resolved input (as it started: a rendered prompt, a tool's input) and its recorded output, side
 * by side, collapsed (a report or a whole article would bury the page). A step that has neither yet is left
 * out; an input over 64 KB was not kept, and the page says so rather than showing nothing.
 */
export function stepOutputsView(run, open) {
  const has = (v) => v !== undefined && v !== null;
  const steps = (run.runSteps ?? []).map((s, i) => [s, i]).filter(([s]) => has(s.output) || has(s.input) || s.inputOmitted);
  if (!steps.length) return null;
  const none = (text) => h('p', { class: 'muted small' }, text);
  return h(
    'section',
    { class: 'step-outputs', 'aria-label': 'Step inputs and outputs' },
    h('h3', {}, 'Step inputs and outputs'),
    steps.map(([s, i]) =>
      h(
        'details',
        {
          class: 'step-output',
          'data-step': String(i),
          open: open.has(i),
          // Remembered across the re-renders each event causes, so an opened step stays open.
          ontoggle: (e) => (e.target.open ? open.add(i) : open.delete(i)),
        },
        h('summary', {}, `${i + 1}. ${s.name}`, h('span', { class: 'muted small' }, ` ${s.kind ?? ''}`)),
        h(
          'div',
          { class: 'step-sides' },
          stepSide(
            'step-input',
            'Input',
            has(s.input) ? valueView(inputValue(s.input)) : none(s.inputOmitted ? 'Over 64 KB as JSON: not kept.' : 'None recorded.'),
          ),
          stepSide('step-output-value', 'Output', has(s.output) ? valueView(s.output) : none('None yet.')),
        ),
      ),
    ),
  );
}
