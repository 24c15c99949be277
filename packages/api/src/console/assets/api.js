// The console's one way to the gateway: the public /v1 API with the reviewer's bearer token, kept in
// this tab's sessionStorage (gone when the tab closes; never in a cookie, so no CSRF surface).

const KEYS = { token: 'atelier.token', refresh: 'atelier.refresh', workspace: 'atelier.workspace', who: 'atelier.who' };

export const session = {
  get token() {
    return sessionStorage.getItem(KEYS.token);
  },
  get workspaceId() {
    return sessionStorage.getItem(KEYS.workspace);
  },
  get who() {
    return sessionStorage.getItem(KEYS.who) ?? '';
  },
  /** A session from /v1/auth/login (with a refresh token) or a pasted API key (without). */
  start({ token, refreshToken, who }) {
    sessionStorage.setItem(KEYS.token, token);
    if (refreshToken) sessionStorage.setItem(KEYS.refresh, refreshToken);
    else sessionStorage.removeItem(KEYS.refresh);
    sessionStorage.setItem(KEYS.who, who);
    sessionStorage.removeItem(KEYS.workspace);
  },
  pickWorkspace(id) {
    sessionStorage.setItem(KEYS.workspace, id);
  },
  clear() {
    for (const key of Object.values(KEYS)) sessionStorage.removeItem(key);
  },
};

/** A non-2xx answer, with the `detail` of the contract's error body. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(describeDetail(status, detail));
    this.status = status;
    this.detail = detail;
  }
}

const BUDGET_REASONS = {
  per_run_cap_exceeded: 'over the per-run cap',
  hard_stop: 'the limit is a hard stop',
  allow_overage_exceeded: 'past the allowed overage',
  allow_one_more_exhausted: 'the one more run past the limit was already used',
};

const money = (n) => (typeof n === 'number' && Number.isFinite(n) ? `$${n.toFixed(n !== 0 && Math.abs(n) < 1 ? 4 : 2)}` : '?');

/** A budget refusal (402) has no message, only figures: said as the CLI says it (cli/src/api/errors.ts). */
function budgetSentence(d) {
  const why = BUDGET_REASONS[d.reason] ?? d.reason;
  return `Budget exceeded: ${money(d.remainingUsd)} left of ${money(d.limitUsd)} in the ${d.scope ?? 'workspace'} budget (spent ${money(d.spendUsd)}), and this is estimated at ${money(d.runEstimateUsd)}${why ? `; ${why}` : ''}. Nothing was spent.`;
}

/** The contract's error bodies in one line: a message, a domain error object, or 422 validation entries. */
export function describeDetail(status, detail) {
  if (typeof detail === 'string') return detail;
  if (detail?.code === 'budget_exceeded') return budgetSentence(detail);
  if (Array.isArray(detail)) return detail.map((e) => `${(e.loc ?? []).slice(1).join('.') || 'request'}: ${e.msg}`).join('; ');
  if (detail && typeof detail === 'object') return detail.message ?? detail.msg ?? detail.code ?? JSON.stringify(detail);
  return `the gateway answered ${status}`;
}

async function send(method, path, body, token) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function parse(res) {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

let refreshing;
/** An expired access token is exchanged once for a new pair (the refresh token is single-use). */
async function refreshSession() {
  const refreshToken = sessionStorage.getItem(KEYS.refresh);
  if (!refreshToken) return false;
  refreshing ??= (async () => {
    const res = await send('POST', '/v1/auth/refresh', { refreshToken });
    if (!res.ok) return false;
    const pair = await res.json();
    sessionStorage.setItem(KEYS.token, pair.accessToken);
    sessionStorage.setItem(KEYS.refresh, pair.refreshToken);
    return true;
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/** Back to the sign-in page, which returns to this page afterwards. */
export function toSignIn(reason) {
  const url = new URL('/console', location.origin);
  url.searchParams.set('next', location.pathname);
  if (reason) url.searchParams.set('why', reason);
  location.replace(url);
}

/**
 * Calls the API as the signed-in reviewer; throws ApiError on any non-2xx answer. A 401 that a refresh
 * cannot cure ends the console session and goes back to sign-in.
 */
export async function api(method, path, body) {
  let res = await send(method, path, body, session.token);
  if (res.status === 401 && (await refreshSession())) res = await send(method, path, body, session.token);
  if (res.status === 401) {
    session.clear();
    toSignIn('expired');
  }
  const parsed = await parse(res);
  if (!res.ok) throw new ApiError(res.status, parsed?.detail ?? parsed);
  return parsed;
}

/** Calls the API with an explicit credential (sign-in), without refreshing. */
export async function apiWith(token, method, path, body) {
  const res = await send(method, path, body, token);
  const parsed = await parse(res);
  if (!res.ok) throw new ApiError(res.status, parsed?.detail ?? parsed);
  return parsed;
}

/** The query string of a list call, scoped to the picked workspace. */
export function inWorkspace(params = {}) {
  const query = new URLSearchParams({ workspaceId: session.workspaceId ?? '' });
  for (const [k, v] of Object.entries(params)) {
    // An array is a repeated parameter (tag=a&tag=b).
    if (Array.isArray(v)) for (const item of v) query.append(k, String(item));
    else if (v !== undefined && v !== '') query.set(k, String(v));
  }
  return query.toString();
}

export const TERMINAL_RUN_STATUSES = ['completed', 'review', 'failed', 'cancelled', 'rejected', 'changes_requested'];

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    signal?.addEventListener('abort', stop, { once: true });
  });

/**
 * Follows GET /v1/runs/{id}/events. The stream needs the bearer header, which EventSource cannot send,
 * so this reads it with fetch and parses the event-stream format itself; on a dropped connection it
 * reconnects with Last-Event-ID, so nothing is missed or repeated, until the run has ended (or the
 * gateway answers 204: nothing more will come). `onEvent({ type, id, data })` gets each event.
 */
export async function followRunEvents(runId, onEvent, { signal, onState } = {}) {
  let lastId;
  let ended = false;
  let delay = 1000;
  while (!ended && !signal?.aborted) {
    const headers = { accept: 'text/event-stream', authorization: `Bearer ${session.token}` };
    if (lastId !== undefined) headers['last-event-id'] = lastId;
    try {
      const res = await fetch(`/v1/runs/${encodeURIComponent(runId)}/events`, { headers, signal });
      if (res.status === 204) break;
      if (res.status === 401 && (await refreshSession())) continue;
      if (!res.ok) throw new ApiError(res.status, (await parse(res))?.detail);
      onState?.('live');
      delay = 1000;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let event = { type: 'message', data: [], id: undefined };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let newline;
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (event.data.length) {
              if (event.id !== undefined) lastId = event.id;
              const data = JSON.parse(event.data.join('\n'));
              const status = event.type === 'snapshot' || event.type === 'run.status' ? data.status : undefined;
              if (status && TERMINAL_RUN_STATUSES.includes(status)) ended = true;
              onEvent({ type: event.type, id: event.id, data });
            }
            event = { type: 'message', data: [], id: undefined };
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event.type = text;
          else if (field === 'data') event.data.push(text);
          else if (field === 'id') event.id = text;
        }
      }
    } catch (err) {
      if (signal?.aborted) break;
      if (err instanceof ApiError) {
        onState?.('error', err);
        return;
      }
    }
    if (ended || signal?.aborted) break;
    onState?.('reconnecting');
    await sleep(delay, signal);
    delay = Math.min(delay * 2, 15_000);
  }
  onState?.('ended');
}
