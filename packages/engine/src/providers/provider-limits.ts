/**
 * Provider capacity as configuration, and the arithmetic of holding a fleet under it. Pure: no clock, no
 * database; capacity.ts does the waiting and packages/db/src/provider-capacity.ts the shared bookkeeping.
 */

/** One provider's (or one model's) capacity, shared by every worker of the deployment. */
export interface ProviderLimit {
  /** Calls that may start in any window of `windowMs`, fleet-wide. */
  requests?: { count: number; windowMs: number };
  /** Calls in flight at once, fleet-wide. */
  concurrency?: number;
  /**
   * Tokens (prompt and answer) that text calls may spend in any window of `windowMs`, fleet-wide, for
   * providers that meter them (tokensPerMinute). A call reserves its estimate (tokenEstimate) before it goes
   * and is charged what the answer reports beyond it.
   */
  tokens?: { count: number; windowMs: number };
}

/** By provider name (`openai`) or by registry model id (`openai/gpt-4o`); a call takes permits from both when both are set. */
export type ProviderLimits = Record<string, ProviderLimit>;

export const PROVIDER_LIMITS_ENV = 'ATELIER_PROVIDER_LIMITS';

/**
 * How much later one call may reach the provider than another, relative to the slots they were given (the
 * way back from the database, a timer firing late, the request going out). Slots are spaced so that even
 * calls this far apart in delay never put more than `count` requests into one window at the provider.
 */
export const ARRIVAL_JITTER_MS = 50;

/** A call that wakes later than this after its slot gives the slot up and takes another (see mustRequeue). */
export const LATE_TOLERANCE_MS = 25;

/** How long a concurrency permit lives without being renewed: a dead worker's permits come back after this. */
export const CONCURRENCY_LEASE_MS = 60_000;

const FIELDS = new Set(['requestsPerSecond', 'requestsPerMinute', 'concurrency', 'tokensPerMinute']);
const FIELD_NAMES = 'requestsPerSecond, requestsPerMinute, concurrency, tokensPerMinute';
// A model id is `<provider>/<model>`, and the model part may run to several segments (replicate's
// `replicate/black-forest-labs/flux-schnell`, fal's `fal/fal-ai/flux/dev`), each starting with a letter or digit.
const KEY = /^[a-z0-9][a-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._:-]*)*$/;

/**
 * ATELIER_PROVIDER_LIMITS, e.g. `{"openai":{"requestsPerSecond":20,"concurrency":64},"openai/gpt-4o":{"requestsPerMinute":500,"tokensPerMinute":30000}}`.
 * Unset or empty: no limits (every provider, the `local` stub included, unlimited). Anything malformed throws
 * an error naming the key and field, so a worker refuses to start rather than run unguarded.
 */
export function parseProviderLimits(text: string | undefined, name = PROVIDER_LIMITS_ENV): ProviderLimits {
  if (text === undefined || text.trim() === '') return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${name} is not JSON: ${(err as Error).message}`);
  }
  if (!isObject(raw)) throw new Error(`${name} must be a JSON object keyed by provider or model id`);
  const limits: ProviderLimits = {};
  for (const [key, value] of Object.entries(raw)) {
    const at = `${name}[${JSON.stringify(key)}]`;
    if (!KEY.test(key)) throw new Error(`${at}: keys are a provider name (openai) or a model id (openai/gpt-4o)`);
    if (!isObject(value)) throw new Error(`${at} must be an object with any of ${FIELD_NAMES}`);
    for (const field of Object.keys(value)) if (!FIELDS.has(field)) throw new Error(`${at}.${field} is not a setting (${FIELD_NAMES})`);
    const { requestsPerSecond: perSecond, requestsPerMinute: perMinute, concurrency, tokensPerMinute } = value;
    if (perSecond !== undefined && perMinute !== undefined) throw new Error(`${at}: set requestsPerSecond or requestsPerMinute, not both`);
    const limit: ProviderLimit = {};
    if (perSecond !== undefined) limit.requests = { count: positive(perSecond, `${at}.requestsPerSecond`), windowMs: 1_000 };
    if (perMinute !== undefined) limit.requests = { count: positive(perMinute, `${at}.requestsPerMinute`), windowMs: 60_000 };
    if (concurrency !== undefined) {
      if (!Number.isInteger(concurrency) || (concurrency as number) < 1 || (concurrency as number) > 10_000)
        throw new Error(`${at}.concurrency must be a whole number from 1 to 10000`);
      limit.concurrency = concurrency as number;
    }
    if (tokensPerMinute !== undefined) limit.tokens = { count: positive(tokensPerMinute, `${at}.tokensPerMinute`), windowMs: 60_000 };
    limits[key] = limit;
  }
  return limits;
}

export const providerLimitsFromEnv = (env: NodeJS.ProcessEnv): ProviderLimits => parseProviderLimits(env[PROVIDER_LIMITS_ENV]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function positive(v: unknown, at: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new Error(`${at} must be a positive number`);
  return v;
}

/** The limits a call to `modelId` on `provider` takes permits from: the provider's, then the model's. */
export function limitsFor(limits: ProviderLimits, provider: string, modelId: string): Array<{ key: string; limit: ProviderLimit }> {
  const keys = modelId === provider ? [provider] : [provider, modelId];
  return keys.flatMap((key) => (limits[key] ? [{ key, limit: limits[key] }] : []));
}

/**
 * Milliseconds between the starts of two calls under `requests`: calls start one at a time, each at least
 * this long after the previous one. Spacing rather than bursts, so a window of `windowMs` anywhere holds at
 * most `count` starts; stretched by ARRIVAL_JITTER_MS so that holds where the provider counts them too.
 */
export function spacingMs(requests: { count: number; windowMs: number }): number {
  return (requests.windowMs + ARRIVAL_JITTER_MS) / requests.count;
}

/**
 * The row that holds a key's token rate beside its request rate (a request and a token rate are two
 * schedules). No key can be mistaken for it: keys have no spaces.
 */
export const tokenRateKey = (key: string): string => `${key} tokens`;

/**
 * What a model's text calls have come to in this worker, for the next call's reservation: how long its answers
 * are (tokens), and how many characters of prompt the provider counted as one token (its chat framing
 * included). Before any answer: 1,000 tokens and four characters, the usual rough count for English.
 */
export interface TokenHabits {
  answer: number;
  charsPerToken: number;
}

export const FIRST_HABITS: Readonly<TokenHabits> = Object.freeze({ answer: 1_000, charsPerToken: 4 });

/** Each answer moves a model's habits this share of the way towards it (a running mean). */
const HABIT_WEIGHT = 0.2;

/** The characters a text call sends that count as prompt: the prompt and the JSON Schema that goes with it. */
export const sentChars = (prompt: string, jsonSchema: unknown): number =>
  prompt.length + (jsonSchema === undefined ? 0 : JSON.stringify(jsonSchema).length);

/** The tokens a text call reserves before it goes: what it sends, and an answer as long as its model's usually are. */
export function tokenEstimate(sent: number, habits: TokenHabits): number {
  return Math.ceil(sent / habits.charsPerToken) + Math.max(0, Math.round(habits.answer));
}

/**
 * A model's habits once an answer came: `sent` characters were counted as `used.input` tokens, and it wrote
 * `used.output`. The first answer of a model (no `habits` yet) is taken as it is; later ones move them a share.
 */
export function learnHabits(habits: TokenHabits | undefined, sent: number, used: { input: number; output: number }): TokenHabits {
  const from = habits ?? FIRST_HABITS;
  // Bounded, so that one odd count (a cached prompt reported as a few tokens) cannot swing the next reservations far.
  const charsPerToken = used.input > 0 && sent > 0 ? Math.min(16, Math.max(0.5, sent / used.input)) : from.charsPerToken;
  if (!habits) return { answer: used.output, charsPerToken };
  const toward = (a: number, b: number) => a + HABIT_WEIGHT * (b - a);
  return { answer: toward(habits.answer, used.output), charsPerToken: toward(habits.charsPerToken, charsPerToken) };
}

/**
 * How far ahead of its start a text call under a token rate may reserve. A burst's calls would otherwise all
 * reserve as they arrive, at what a model's answers had come to before the burst; a call further back waits
 * first (one of a worker's calls at a time asks), so that it reserves at what the answers before it showed.
 */
export const TOKEN_HORIZON_MS = 1_000;

/**
 * What an answered call still owes its key's token rate: the tokens the provider counted beyond what it
 * reserved. A call that used less gives nothing back: the fleet then errs below the provider's count, never
 * above it (some providers count the reservation, `max_tokens` included, whatever the answer used).
 */
export const tokensOwed = (reserved: number, used: number): number => Math.max(0, used - reserved);

/**
 * A call that woke more than LATE_TOLERANCE_MS after its slot must not go out on it: sent that late, it
 * could land in the same window as calls given later slots. It takes a new slot instead (the old one is
 * lost, which only ever leaves capacity unused).
 */
export const mustRequeue = (lateMs: number): boolean => lateMs > LATE_TOLERANCE_MS;

/**
 * How long to wait after a 429 before calling again: the provider's Retry-After when it gave one (capped at
 * a minute), otherwise an exponential backoff from 500 ms to 10 s, jittered so the fleet does not come
 * back all at once. `attempt` counts the 429s of this call, from 1.
 */
export function throttleWaitMs(attempt: number, retryAfterMs: number | undefined, random: number = Math.random()): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) return Math.min(60_000, retryAfterMs);
  const ceiling = Math.min(10_000, 500 * 2 ** Math.min(attempt - 1, 20));
  return ceiling * (0.5 + random / 2);
}

/** A Retry-After header in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * How long a call waits before asking for a concurrency permit again when every one is held: from 25 ms,
 * doubling to 1 s, jittered. A permit released in this process wakes its waiters at once (capacity.ts).
 */
export function concurrencyRetryMs(attempt: number, random: number = Math.random()): number {
  return Math.min(1_000, 25 * 2 ** Math.min(attempt - 1, 10)) * (0.5 + random / 2);
}
