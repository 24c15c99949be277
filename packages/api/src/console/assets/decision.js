// Deciding on runs in review: the form for one item (with exactly the fields its typed hold declares)
// and the bulk form (POST /v1/queue/decisions, each entry judged on its own).
import { ApiError, api } from './api.js';
import { h } from './dom.js';

/** One control per held field, typed as the hold declares it; required only when approving. */
function holdControl(field) {
  const name = `hold.${field.name}`;
  const id = `hold-${field.name}`;
  let control;
  switch (field.type) {
    case 'enum':
      control = h(
        'select',
        { id, name, required: true },
        h('option', { value: '' }, 'choose…'),
        (field.options ?? []).map((o) => h('option', {}, o)),
      );
      break;
    case 'boolean':
      control = h(
        'select',
        { id, name, required: true },
        h('option', { value: '' }, 'choose…'),
        h('option', { value: 'true' }, 'yes'),
        h('option', { value: 'false' }, 'no'),
      );
      break;
    case 'integer':
      control = h('input', { id, name, type: 'number', step: '1', required: true, inputmode: 'numeric' });
      break;
    case 'number':
      control = h('input', { id, name, type: 'number', step: 'any', required: true, inputmode: 'decimal' });
      break;
    default:
      control = h('input', { id, name, type: 'text', required: true, autocomplete: 'off' });
  }
  return h('div', { class: 'field' }, h('label', { for: id }, field.name, ' ', h('span', { class: 'muted small' }, field.type)), control);
}

function holdValue(field, raw) {
  switch (field.type) {
    case 'boolean':
      return raw === 'true';
    case 'integer':
    case 'number':
      return Number(raw);
    default:
      return raw;
  }
}

/** The patch that releases the hold: exactly the held fields, each converted to its type. */
function holdPatch(item, data) {
  if (!item.holdFields?.length) return undefined;
  return Object.fromEntries(item.holdFields.map((f) => [f.name, holdValue(f, String(data.get(`hold.${f.name}`) ?? ''))]));
}

const blockers = (item) => (item.qa?.checks ?? []).filter((c) => c.status !== 'pass');

/**
 * The decision form of one queue item. Approve checks the held fields in the browser first (required
 * controls); request changes and reject skip that (formnovalidate). `onDecided(item, decision)` runs
 * after the gateway accepted the decision.
 */
export function decisionForm(item, onDecided) {
  const error = h('p', { class: 'error', role: 'alert' });
  const blocked = blockers(item);
  const form = h(
    'form',
    { class: 'decision card stack', 'aria-label': 'Decision' },
    h('h3', {}, 'Decision'),
    item.holdFields?.length
      ? h(
          'fieldset',
          { class: 'hold' },
          h('legend', {}, `Held by ${item.gateName ?? item.gateId ?? 'the gate'}: approving needs these fields`),
          item.holdFields.map(holdControl),
        )
      : null,
    blocked.length
      ? h(
          'p',
          { class: 'warning small' },
          `Approval is refused while a QA check is not passing (${blocked.map((c) => c.label || c.id).join(', ')}).`,
        )
      : null,
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'decision-note' }, 'Note ', h('span', { class: 'muted small' }, 'kept in the decision ledger')),
      h('textarea', { id: 'decision-note', name: 'note', rows: '2', maxlength: '10000' }),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', name: 'decision', value: 'approve', class: 'primary', 'data-key': 'a' }, 'Approve'),
      h('button', { type: 'submit', name: 'decision', value: 'request_changes', formnovalidate: true, 'data-key': 'c' }, 'Request changes'),
      h('button', { type: 'submit', name: 'decision', value: 'reject', formnovalidate: true, class: 'danger', 'data-key': 'r' }, 'Reject'),
    ),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const decision = event.submitter?.value ?? 'approve';
    const data = new FormData(form);
    const note = String(data.get('note') ?? '').trim();
    const body = { decision, gateId: item.gateId ?? undefined, note: note || undefined };
    if (decision === 'approve') body.patch = holdPatch(item, data);
    error.textContent = '';
    for (const b of form.querySelectorAll('button')) b.disabled = true;
    try {
      await api('POST', `/v1/queue/${encodeURIComponent(item.runId)}/decision`, body);
      onDecided(item, decision);
    } catch (err) {
      error.textContent = err instanceof ApiError ? `${err.status}: ${err.message}` : String(err);
      for (const b of form.querySelectorAll('button')) b.disabled = false;
    }
  });
  return form;
}

/** Presses one of the form's decision buttons (keyboard shortcuts); approve still validates the hold. */
export function pressDecision(form, key) {
  const button = form?.querySelector(`button[data-key="${key}"]`);
  if (button && !button.disabled) form.requestSubmit(button);
}

/**
 * Several decisions in one call. Each entry succeeds or fails on its own: the answer names the runs
 * decided and, for the others, the gateway's reason (a held item needs its own form to be approved).
 */
export async function decideMany(items, decision, note) {
  const decisions = items.map((i) => ({ runId: i.runId, decision, gateId: i.gateId ?? undefined, note: note || undefined }));
  const answer = await api('POST', '/v1/queue/decisions', { decisions });
  const decided = [];
  const failed = [];
  answer.results.forEach((r, index) => {
    const runId = r.runId ?? decisions[index].runId;
    if (r.ok) decided.push(runId);
    else failed.push({ runId, message: new ApiError(r.statusCode, r.detail).message });
  });
  return { decided, failed };
}
