import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { ERROR_BODIES, ERROR_CODES, MessageError } from '@atelier/contracts/errors';
import { z } from '@hono/zod-openapi';
import { classifyDbError, pgConstraint } from '@atelier/db';
import type { AppEnv } from './services.js';

/**
 * The one place every error response of the contract is shaped. Handlers throw an ApiError; the app's
 * error handler renders it as `{ detail }` with its status. Anything else becomes a logged 500 that shows
 * only the request id.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
}

export interface ValidationEntry {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input: unknown;
}

export { ERROR_CODES };
export type ErrorCode = keyof typeof ERROR_CODES;

/** 422 bodies the contract keys by `error` rather than `code`. */
export type InvalidKind = 'intake_invalid' | 'workflow_invalid' | 'workflow_not_runnable' | 'variations_invalid';

/**
 * What a 404 can say is missing: the contract's resources, by the nouns its paths and messages use. Every
 * 404 reads `<noun> <id> not found`, so a client (or a person) reads them all the same way.
 */
export const NOT_FOUND_NOUNS = [
  'API key',
  'artifact',
  'binding',
  'brand',
  'budget',
  'campaign',
  'character',
  'client',
  'consent',
  'contact',
  'document',
  'draft version',
  'file',
  'member',
  'order',
  'project',
  'provider webhook',
  'publication',
  'published version',
  'reference',
  'run',
  'subject',
  'user',
  'version',
  'webhook endpoint',
  'workflow',
  'workspace',
] as const;
export type NotFoundNoun = (typeof NOT_FOUND_NOUNS)[number];

export const fail = {
  /** `id` names which one (`3 of character c_1` for a character's version); `hint` says what exists instead. */
  notFound: (noun: NotFoundNoun, id?: string | number, hint?: string) =>
    new ApiError(404, `${noun}${id === undefined ? '' : ` ${id}`} not found${hint ? `; ${hint}` : ''}`),
  /** The path names no route (or a route this caller may not know of, such as /v1/ops to non-operators). */
  noRoute: (method: string, path: string) => new ApiError(404, `no route for ${method} ${path}`),
  unauthorized: (message = 'missing or invalid credentials') => new ApiError(401, message, { 'WWW-Authenticate': 'Bearer' }),
  /** A signature that does not verify: 401 without a bearer challenge, since no bearer credential would help. */
  badSignature: (message: string) => new ApiError(401, message),
  forbidden: (message: string, headers: Record<string, string> = {}) => new ApiError(403, message, headers),
  /** The refusal of a budget as the contract shapes it (budgets/enforce.ts). */
  budgetRefused: (refusal: Record<string, unknown>) => new ApiError(402, refusal),
  unsupportedMediaType: (message: string) => new ApiError(415, message),
  bodyTooLarge: (maxBytes: number) => new ApiError(413, `the request body is larger than ${maxBytes} bytes`),
  adminRequired: () => fail.code('admin_required', { message: 'only owners and admins can change this' }),
  /** The refusal `code`, answered with the status the code carries. */
  code: (code: ErrorCode, extra: Record<string, unknown> = {}) => new ApiError(ERROR_CODES[code], { code, ...extra }),
  // The contract keys these by `error`; `code` carries the same value so every 4xx object narrows on `code`.
  invalid: (error: InvalidKind, extra: Record<string, unknown>) => new ApiError(422, { error, code: error, ...extra }),
  validation: (entries: ValidationEntry[]) => new ApiError(422, entries),
  intakeInvalid: (fields: string[]) => fail.invalid('intake_invalid', { fields }),
  invalidTransition: (message: string, extra: Record<string, unknown> = {}) => fail.code('invalid_transition', { message, ...extra }),
  unavailable: (message: string, retryAfterSeconds = 5) => new ApiError(503, message, { 'Retry-After': String(retryAfterSeconds) }),
  loginThrottled: (retryAfterSeconds: number) =>
    new ApiError(
      ERROR_CODES.login_throttled,
      {
        code: 'login_throttled',
        message: `too many failed sign-ins for this account or from this address; try again in ${retryAfterSeconds} s`,
        retryAfterSeconds,
      },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  /** A password refused by the strength rule (auth/password-strength.ts), as a 422 entry for the field that carried it. */
  weakPassword: (field: string, why: { message: string; suggestions: string[] }) =>
    fail.validation([
      {
        type: 'password_too_weak',
        loc: ['body', field],
        msg: [why.message, ...why.suggestions].join(' '),
        // Never echo a password, not even a weak one.
        input: null,
      },
    ]),
};

const LOCATIONS: Record<string, string> = { json: 'body', query: 'query', param: 'path', header: 'header', cookie: 'cookie', form: 'body' };

function valueAt(source: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = source;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

async function rawInput(c: Context, target: string): Promise<unknown> {
  try {
    if (target === 'json') return await c.req.json();
    if (target === 'query') return c.req.query();
    if (target === 'param') return c.req.param();
    if (target === 'header') return c.req.header();
  } catch {
    return undefined;
  }
  return undefined;
}

const ECHO = { chars: 200, items: 10, depth: 3 };
/** Fields whose value a 422 never echoes: a refused password or secret would otherwise come back in the body (and logs). */
const SECRET_FIELD = /password|secret|token/i;
const REDACTED = '(not shown)';
const secretField = (key: PropertyKey | undefined) => typeof key === 'string' && SECRET_FIELD.test(key);

/**
 * What a 422 echoes of the input it refused: enough to recognise it, never the whole of a large body.
 * Long strings are cut (with their length said), long arrays and objects keep their first entries, and
 * nesting below a few levels is summarised.
 */
export function boundedEcho(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > ECHO.chars ? `${value.slice(0, ECHO.chars)}… (${value.length} characters)` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= ECHO.depth) return Array.isArray(value) ? `[array of ${value.length}]` : '{object}';
  if (Array.isArray(value)) {
    const head = value.slice(0, ECHO.items).map((v) => boundedEcho(v, depth + 1));
    return value.length > ECHO.items ? [...head, `… (${value.length} items)`] : head;
  }
  const entries = Object.entries(value);
  const head = Object.fromEntries(
    entries.slice(0, ECHO.items).map(([k, v]) => [boundedEcho(k) as string, secretField(k) ? REDACTED : boundedEcho(v, depth + 1)]),
  );
  if (entries.length > ECHO.items) head['…'] = `${entries.length} keys`;
  return head;
}

/**
 * zod's issues against the raw input they judged, as the contract's 422 entries `{ type, loc, msg, input }`;
 * each loc is `prefix` followed by the issue's path (e.g. `['body']`, or `['body', 'decisions', 3]` for one
 * entry of a batch validated on its own).
 */
export function issueEntries(error: ZodError, raw: unknown, prefix: ReadonlyArray<string | number>): ValidationEntry[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    // zod reports an absent field by the check it failed (type, enum value, union); the contract says "missing".
    const missing =
      issue.path.length > 0 &&
      ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code) &&
      valueAt(raw, issue.path) === undefined;
    return {
      type: missing ? 'missing' : issue.code,
      loc: [...prefix, ...path],
      msg: missing ? 'Field required' : issue.message,
      input: secretField(path.at(-1)) ? REDACTED : boundedEcho((path.length === 0 ? raw : valueAt(raw, issue.path)) ?? null),
    };
  });
}

/** zod's issues as the contract's 422 entries: `{ type, loc, msg, input }`, loc starting at body/query/path. */
export async function validationEntries(c: Context, target: string, error: ZodError): Promise<ValidationEntry[]> {
  return issueEntries(error, await rawInput(c, target), [LOCATIONS[target] ?? target]);
}

/** The hook every route uses when its zod schemas reject the request. */
export async function validationHook(
  result: { success: boolean; target: string; error?: ZodError },
  c: Context<AppEnv>,
): Promise<Response | undefined> {
  if (result.success || !result.error) return undefined;
  return c.json({ detail: await validationEntries(c, result.target, result.error) }, 422);
}

export function renderError(err: unknown, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json({ detail: err.detail }, err.status);
  }
  if (err instanceof HTTPException) {
    if (err.status === 400 && /json/i.test(err.message)) {
      return c.json({ detail: [{ type: 'json_invalid', loc: ['body'], msg: 'The request body is not valid JSON', input: null }] }, 422);
    }
    if (err.status < 500) return c.json({ detail: err.message || 'request refused' }, err.status as ContentfulStatusCode);
  }
  const requestId = c.get('requestId');
  switch (classifyDbError(err)) {
    case 'input':
      // A rule the database enforces that no check before it caught: still the caller's input.
      c.get('logger')?.warn({ err, requestId }, 'database refused the input');
      return renderError(
        fail.code('input_refused', { constraint: pgConstraint(err) ?? null, message: 'the database refused this input' }),
        c,
      );
    case 'unavailable':
      c.get('logger')?.warn({ err, requestId }, 'database unavailable');
      c.header('Retry-After', '5');
      return c.json({ detail: `the database is unavailable; retry shortly (request ${requestId})` }, 503);
  }
  c.get('logger')?.error({ err, requestId }, 'unhandled error');
  return c.json({ detail: `internal error (request ${requestId})` }, 500);
}

/** OpenAPI response entries for the error statuses a route can answer, each with the bodies it carries. */
export function errorResponses(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'Refused by the target',
    401: 'Missing or invalid credentials',
    402: 'A budget refused the request',
    403: 'Not permitted',
    404: "Not found, or outside the caller's workspace",
    409: 'Conflict',
    422: 'Validation failure',
    428: 'An etag is required',
    429: 'Too many failed sign-ins; retry after the Retry-After header',
  };
  return Object.fromEntries(
    statuses.map((s) => {
      const bodies = ERROR_BODIES[s] ?? [MessageError];
      const schema = bodies.length === 1 ? bodies[0]! : z.union(bodies as unknown as [z.ZodTypeAny, z.ZodTypeAny]);
      const headers =
        s === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' as const } } } } : {};
      return [s, { description: descriptions[s] ?? 'Error', ...headers, content: { 'application/json': { schema } } }];
    }),
  );
}
