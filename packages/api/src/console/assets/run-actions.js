// What a reviewer can do to a run from its page: cancel it while it is still moving, and rerun it (the
// dry-run estimate first, then the new run). Each asks in the page, not with window.confirm, so the
// question is styled, keyboard-reachable and testable.
import { TERMINAL_RUN_STATUSES, api } from './api.js';
import { announce, ask, fill, h, usd } from './dom.js';

const runPath = (id, action) => `/v1/runs/${encodeURIComponent(id)}/${action}`;

function cancelAction(run, onChange) {
  const slot = h('span', { class: 'confirm run-cancel' });
  const start = () =>
    h(
      'button',
      {
        type: 'button',
        class: 'danger',
        onclick: () =>
          ask(
            slot,
            start,
            'Cancel this run? It stops at the next step boundary; what it spent so far stays billed.',
            'Yes, cancel the run',
            async () => {
              const after = await api('POST', runPath(run.id, 'cancel'));
              announce(`Cancelled ${run.id}.`, 'ok');
              onChange(after);
            },
            { danger: true, noLabel: 'Keep it running' },
          ),
      },
      'Cancel',
    );
  return fill(slot, start());
}

function estimateText(estimate) {
  const { min, typical, max, currency } = estimate ?? {};
  if (typeof typical !== 'number') return 'no estimate';
  return min === max ? usd(typical, currency) : `${usd(typical, currency)} (between ${usd(min, currency)} and ${usd(max, currency)})`;
}

function rerunAction(run) {
  const slot = h('span', { class: 'confirm run-rerun' });
  const start = () =>
    h(
      'button',
      {
        type: 'button',
        onclick: async (event) => {
          event.target.disabled = true;
          try {
            // Nothing is created by a dry run: it answers what the rerun would cost (or why it would be refused).
            const dry = await api('POST', runPath(run.id, 'rerun'), { dryRun: true });
            const what = dry.wouldCreate ?? {};
            ask(
              slot,
              start,
              h(
                'span',
                { class: 'estimate' },
                `A new run of ${what.templateId ?? run.templateId} ${what.workflowVersion ?? run.workflowVersion} with the same intake, estimated at `,
                h('strong', {}, estimateText(dry.estimate)),
                '.',
              ),
              'Start the rerun',
              async () => {
                const created = await api('POST', runPath(run.id, 'rerun'), {});
                location.assign(`/console/runs/${encodeURIComponent(created.id)}`);
              },
            );
          } catch (err) {
            announce(err.message, 'error');
            fill(slot, start());
          }
        },
      },
      'Rerun…',
    );
  return fill(slot, start());
}

/**
 * The action bar, kept outside the part of the page each event redraws (a question half answered must not
 * vanish when a step finishes). `update(run)` rebuilds it only when the run crosses into a terminal status.
 */
export function runActions(bar, onChange) {
  let moving;
  return (run) => {
    const now = !TERMINAL_RUN_STATUSES.includes(run.status);
    if (now === moving) return;
    moving = now;
    fill(bar, now ? cancelAction(run, onChange) : null, ' ', rerunAction(run));
  };
}
