// What a reviewer can do to an order, each offered only in the statuses where the contract allows it
// (service spec, "Order statuses"): Start a planned order, Cancel one not yet settled, and for one that
// needs attention, Retry failed children or Accept the gap. Each asks first, in the page rather than
// window.confirm (styled, keyboard-reachable, testable), and an API error is said as a sentence.
import { api } from './api.js';
import { announce, fill, h } from './dom.js';

const path = (orderId, action) => `/v1/orders/${encodeURIComponent(orderId)}/${action}`;

/** The actions in the contract's order: which statuses allow each, what it asks, and what it sends. */
const ACTIONS = [
  {
    name: 'start',
    label: 'Start',
    when: ['planned'],
    // The budgets are checked again against today's spend: a 402 says which one refused, in its words.
    question: 'Start this order? Its children begin to run, and to spend.',
    send: (orderId) => api('POST', path(orderId, 'start')),
    done: 'Started: the children are running.',
  },
  {
    name: 'retry-failed',
    label: 'Retry failed',
    when: ['attention'],
    question: 'Run the failed children again?',
    fields: () =>
      h(
        'p',
        {},
        h(
          'label',
          { class: 'small' },
          h('input', { type: 'checkbox', name: 'includeDeterministic' }),
          ' Include deterministic failures (they would fail the same way again unless something changed)',
        ),
      ),
    send: async (orderId, form) => {
      const { retried } = await api('POST', path(orderId, 'retry-failed'), {
        all: true,
        includeDeterministic: form.elements.includeDeterministic.checked,
      });
      return retried;
    },
    done: (retried) =>
      retried.length
        ? `Retrying ${retried.length} failed ${retried.length === 1 ? 'child' : 'children'}.`
        : 'Nothing was retried: every failure left is deterministic (tick the box to retry those too).',
  },
  {
    name: 'accept-gap',
    label: 'Accept gap',
    when: ['attention'],
    question: 'Settle this order short of its target? The reason is kept on the order.',
    fields: () =>
      h('p', {}, h('label', {}, 'Reason ', h('input', { type: 'text', name: 'reason', required: true, maxlength: '500', size: '50' }))),
    send: (orderId, form) => api('POST', path(orderId, 'accept-gap'), { reason: form.elements.reason.value.trim() }),
    done: 'Settled short; the reason is kept on the order.',
  },
  {
    name: 'cancel',
    label: 'Cancel order',
    when: ['planned', 'running', 'attention'],
    danger: true,
    question: 'Cancel this order? No new children start; those in flight stop at their next step.',
    send: (orderId) => api('POST', path(orderId, 'cancel')),
    done: 'Cancelling: children in flight stop at their next step.',
  },
];

/** An action's confirm step: its question, any input it needs, then "Yes, …" and "Back". */
function confirmStep(action, orderId, { close, after }) {
  const error = h('p', { class: 'error small', role: 'alert' });
  const yes = h('button', { type: 'submit', class: action.danger ? 'danger' : 'primary' }, `Yes, ${action.label.toLowerCase()}`);
  const back = h('button', { type: 'button', onclick: close }, 'Back');
  const form = h(
    'form',
    {
      class: 'card confirm-step',
      'aria-label': `Confirm ${action.label}`,
      'data-action': action.name,
      onsubmit: async (event) => {
        event.preventDefault();
        yes.disabled = true;
        back.disabled = true;
        error.textContent = '';
        try {
          const result = await action.send(orderId, form);
          announce(typeof action.done === 'function' ? action.done(result) : action.done);
          close();
          after();
        } catch (err) {
          // Said by the form, where the eye is, and on the status line, as the other pages say it.
          error.textContent = err.message;
          announce(err.message, 'error');
          yes.disabled = false;
          back.disabled = false;
        }
      },
    },
    h('p', {}, action.question),
    action.fields?.() ?? null,
    h('p', { class: 'inline' }, yes, back),
    error,
  );
  return form;
}

/**
 * Keeps `box` showing the actions an order's status allows: the returned function is called with the
 * status on every refresh. While a confirm step is open it is left alone, so a refresh never throws
 * away a half-typed reason. `after` runs once an action has succeeded (the page reads the order again).
 */
export function orderActions(box, orderId, after) {
  let open = false;
  let shownFor;
  const render = (status, force = false) => {
    if (open || (!force && status === shownFor)) return;
    shownFor = status;
    const close = () => {
      open = false;
      render(shownFor, true);
    };
    const ask = (action) => {
      open = true;
      announce('');
      const step = confirmStep(action, orderId, { close, after });
      fill(box, step);
      (step.querySelector('input') ?? step.querySelector('button'))?.focus();
    };
    const allowed = ACTIONS.filter((a) => a.when.includes(status));
    fill(
      box,
      allowed.length
        ? h(
            'p',
            { class: 'inline' },
            allowed.map((action) =>
              h(
                'button',
                {
                  type: 'button',
                  class: action.danger ? 'danger' : action.name === 'start' ? 'primary' : null,
                  'data-action': action.name,
                  onclick: () => ask(action),
                },
                action.label,
              ),
            ),
          )
        : null,
    );
  };
  return render;
}
