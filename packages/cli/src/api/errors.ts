/**
 * API errors as sentences: one place that reads the contract's error body ({ detail } where detail is
 * a string, an object with a code (or error) and its fields, or a list of request validation issues)
 * and says what went wrong and what to do. `--json` prints the raw body instead (see runCli).
 */
import { money } from './format.js';

/** A non-2xx answer a command could not go on from: its status, raw body and Retry-After, if any. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** The request, e.g. `POST /v1/runs`. */
    readonly what: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${what} answered ${status}`);
    this.name = 'ApiFailure';
  }
}

/** Seconds of a Retry-After header (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

type Detail = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : []);
const bullets = (items: string[]) => items.map((i) => `\n  - ${i}`).join('');
const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

const BUDGET_REASONS: Record<string, string> = {
  per_run_cap_exceeded: 'over the per-run cap',
  hard_stop: 'the limit is a hard stop',
  allow_overage_exceeded: 'past the allowed overage',
  allow_one_more_exhausted: 'the one more run past the limit was already used',
};

function budgetSentence(d: Detail): string {
  const scope = str(d.scope) ?? 'workspace';
  const limit = num(d.limitUsd);
  const left = num(d.remainingUsd);
  const spent = num(d.spendUsd);
  const estimate = num(d.runEstimateUsd);
  const reason = str(d.reason);
  const head =
    reason === 'per_run_cap_exceeded' && num(d.perRunCapUsd) !== undefined
      ? `Budget exceeded: this is estimated at ${money(estimate)}, over the ${scope} budget's per-run cap of ${money(num(d.perRunCapUsd))}`
      : `Budget exceeded: ${money(left)} left of ${money(limit)} in the ${scope} budget (spent ${money(spent)}), and this is estimated at ${money(estimate)}`;
  const why = reason ? (BUDGET_REASONS[reason] ?? reason) : undefined;
  return `${head}${why ? `; ${why}` : ''}${str(d.enforcementMode) && reason !== str(d.enforcementMode) ? ` (${d.enforcementMode})` : ''}. Nothing was spent; raise the budget${str(d.budgetId) ? ` ${d.budgetId}` : ''} or wait for the next period.`;
}

/** The sentence of a validation issue list (422 request validation): `body.intake: Required`. */
function issues(detail: unknown[]): string[] {
  return detail.map((i) => {
    const issue = i as { loc?: unknown[]; msg?: unknown };
    const where = Array.isArray(issue.loc) ? issue.loc.join('.') : '';
    return `${where ? `${where}: ` : ''}${str(issue.msg) ?? JSON.stringify(i)}`;
  });
}

/** What a coded refusal means, by its code (`message` follows when the body has one). */
function codedSentence(status: number, code: string, d: Detail): string {
  const message = str(d.message);
  switch (code) {
    case 'budget_exceeded':
      return budgetSentence(d);
    case 'intake_invalid':
      return `The intake is not valid:${bullets(list(d.fields))}\n(\`atelier workflows show <workflow>\` lists its fields)`;
    case 'workflow_invalid':
      return `The workflow definition is not valid:${bullets(list(d.errors))}`;
    case 'template_deprecated':
      return `Workflow ${str(d.templateId) ?? ''} is deprecated${str(d.supersededBy) ? `; use ${d.supersededBy} instead` : ''}.${message ? ` ${message}` : ''}`;
    case 'character_not_usable':
      return `The character cannot be used${message ? `: ${message}` : ''}${list(d.reasons).length ? ` (${list(d.reasons).join(', ')})` : ''}.`;
    case 'etag_mismatch':
      return `Conflict: the resource changed since you read it${message ? ` (${message})` : ''}; read it again and retry.`;
    case 'etag_required':
      return `This edit needs the resource's etag${message ? `: ${message}` : ''}.`;
    case 'login_throttled':
      return `Too many failed sign-ins${message ? `: ${message}` : ''}.`;
    case 'admin_required':
      return `Forbidden: only owners and admins of the workspace can do this${message ? ` (${message})` : ''}.`;
    case 'approval_blocked':
      return `Approval refused${message ? `: ${message}` : ''}. Every QA check must pass first (\`atelier artifacts show <artifact>\`).`;
    case 'hold_patch_invalid':
    case 'hold_value_invalid':
      return `The hold's patch is not right${message ? `: ${message}` : ''}. \`atelier runs show <run>\` names the fields the hold asks for.`;
    case 'email_taken':
      return `An account with this email already exists${message && !/already exists/.test(message) ? ` (${message})` : ''}.`;
  }
  const kind = STATUS_WORDS[status] ?? `Error ${status}`;
  return `${kind}: ${message ?? code.replace(/_/g, ' ')}${message ? ` (${code})` : ''}.`;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'Refused',
  401: 'Not signed in',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  422: 'Not valid',
  428: 'Precondition required',
  429: 'Rate limited',
  503: 'Service unavailable',
};

/** One sentence (a few lines for lists) for an API error: what the body says, in the contract's terms. */
export function describeApiError(status: number, body: unknown, retryAfter?: number): string {
  const detail = body !== null && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : body;
  let sentence: string;
  if (Array.isArray(detail)) {
    sentence = `The request is not valid:${bullets(issues(detail))}`;
  } else if (detail !== null && typeof detail === 'object') {
    const d = detail as Detail;
    const code = str(d.code) ?? str(d.error);
    sentence = code
      ? codedSentence(status, code, d)
      : `${STATUS_WORDS[status] ?? `Error ${status}`}: ${str(d.message) ?? JSON.stringify(d)}.`;
  } else {
    const text = str(detail)?.replace(/\.$/, '');
    const kind = STATUS_WORDS[status] ?? (status >= 500 ? `Server error ${status}` : `Error ${status}`);
    sentence = text ? `${kind}: ${text}.` : `${kind}.`;
  }
  if (status === 401) sentence += ' Check the API key, or run `atelier init` (or `atelier login --api-key atl_...`).';
  const wait = retryAfter ?? num((detail as Detail | null)?.retryAfterSeconds);
  if (wait !== undefined) sentence += ` Retry after ${seconds(wait)}.`;
  else if (status >= 500) sentence += ' Reads can be retried; check that a POST did not take effect before repeating it.';
  return sentence;
}

/** What stderr gets for an API error: the sentence, then the request and status; with --json, the raw body only. */
export function apiErrorText(failure: ApiFailure, json: boolean): string {
  if (json) return typeof failure.body === 'string' ? failure.body : JSON.stringify(failure.body, null, 2);
  return `error: ${describeApiError(failure.status, failure.body, failure.retryAfterSeconds)}\n  (${failure.what} answered ${failure.status}; --json prints the error body)`;
}
