// What the settings pages (/console/settings/…) share: a secret shown once, a confirm step before
// something that cannot be undone, and reading a form's numbers. The pages themselves are api-keys.js,
// webhooks.js and budgets.js; /console/settings itself is a server-rendered index with nothing to load.
import { announce, ask, fill, h } from './dom.js';

/**
 * Shows a secret the API returns only once (an API key, a webhook signing secret) in `box`, selected,
 * with a copy button, and says plainly that it will not be shown again. Hidden again by `Done`.
 */
export function showSecretOnce(box, { title, secret, use }) {
  const field = h('input', { class: 'secret-value', readonly: true, value: secret, 'aria-label': title, spellcheck: 'false' });
  const copied = h('span', { class: 'muted small', role: 'status' });
  const copy = async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(secret);
      copied.textContent = 'Copied.';
    } catch {
      // The clipboard needs a secure context and permission; the text stays selected for Ctrl+C.
      copied.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
    }
  };
  fill(
    box,
    h('h2', {}, title),
    h('p', { class: 'warning' }, 'Copy it now: it is shown only this once and cannot be recovered later.'),
    use ? h('p', { class: 'small' }, use) : null,
    h('div', { class: 'inline' }, field, h('button', { type: 'button', onclick: copy }, 'Copy'), copied),
    h(
      'p',
      {},
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            fill(box);
            box.hidden = true;
          },
        },
        'Done, I have copied it',
      ),
    ),
  );
  box.hidden = false;
  field.focus();
  field.select();
}

/**
 * A button that asks before it acts: the first press turns it into "question  [Yes] [Cancel]", and only
 * Yes runs `action`. In the page, not window.confirm, so it is styled, keyboard-reachable and testable.
 */
export function confirmButton(label, question, action, yes = `Yes, ${label.toLowerCase()}`) {
  const slot = h('span', { class: 'confirm' });
  const start = () =>
    h(
      'button',
      { type: 'button', class: 'danger', onclick: () => ask(slot, start, question, yes, action, { danger: true, noLabel: 'Cancel' }) },
      label,
    );
  return fill(slot, start());
}

/**
 * Submits `form` with `send(FormData)`, disabling its button meanwhile; an API error is announced as a
 * sentence at the top of the page (as on every console page) and the form keeps what was typed.
 */
export function onSubmit(form, send) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    announce('');
    try {
      await send(new FormData(form));
    } catch (err) {
      announce(err.message, 'error');
    } finally {
      if (button) button.disabled = false;
    }
  });
}

/** A money field of a form: a number, or undefined when left empty (the API's "not set"). */
export function usdField(data, name) {
  const raw = String(data.get(name) ?? '').trim();
  return raw === '' ? undefined : Number(raw);
}

/** Loads a list into `target`, or says why it could not: never a blank region. */
export async function loadInto(target, load) {
  try {
    fill(target, await load());
  } catch (err) {
    fill(target, h('p', { class: 'error' }, `Could not load this list: ${err.message}`));
    announce(err.message, 'error');
  }
}
