import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { type ValidationEntry, fail, renderError } from '../errors.js';
import type { AppEnv } from '../services.js';

/**
 * The gateway's first line against hostile input, before any route reads it: a body-size cap, the
 * encodings JSON routes really read, bounded nesting, and text PostgreSQL can store. Every refusal is
 * the contract's 4xx; nothing reaches a handler, the database or Temporal.
 */
export const INPUT_LIMITS = {
  /** Largest request body, in bytes (413 beyond it, before the rest is read). */
  maxBodyBytes: 2 * 1024 * 1024,
  /** Deepest nesting of objects and arrays in a JSON body. */
  maxJsonDepth: 64,
} as const;

/** 413 as the contract shapes errors; Hono's limiter stops reading at the cap. */
export const bodySizeLimit = (maxBytes: number = INPUT_LIMITS.maxBodyBytes) =>
  bodyLimit({
    maxSize: maxBytes,
    onError: (c) => renderError(fail.bodyTooLarge(maxBytes), c),
  });

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** The charset a Content-Type names, lower-cased, or undefined. */
function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1]?.toLowerCase();
}

/**
 * Deepest nesting of `text` read as JSON, counted without parsing (so a 100,000-deep body costs one
 * linear scan, not a stack overflow). Brackets inside strings do not count.
 */
export function jsonDepth(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text or JSON in PostgreSQL, or undefined when it can. */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'the NUL character (\\u0000) is not allowed in text';
  if (LONE_SURROGATE.test(value)) return 'the text contains an unpaired UTF-16 surrogate';
  return undefined;
}

/** The first string (key or value) of `value` that PostgreSQL cannot store, with its location. */
export function findUnstorable(value: unknown, at: Array<string | number> = []): ValidationEntry | undefined {
  const stack: Array<{ value: unknown; at: Array<string | number> }> = [{ value, at }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const why = unstorableText(item.value);
      if (why) return { type: 'string_unstorable', loc: item.at, msg: why, input: null };
    } else if (Array.isArray(item.value)) {
      for (const [i, v] of item.value.entries()) stack.push({ value: v, at: [...item.at, i] });
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [k, v] of Object.entries(item.value)) {
        const why = unstorableText(k);
        if (why)
          return {
            type: 'string_unstorable',
            loc: [...item.at, [...k].map((ch) => (unstorableText(ch) ? '?' : ch)).join('')],
            msg: `a key: ${why}`,
            input: null,
          };
        stack.push({ value: v, at: [...item.at, k] });
      }
    }
  }
  return undefined;
}

function checkPathAndQuery(c: Context<AppEnv>): void {
  const url = new URL(c.req.url);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw fail.noRoute(c.req.method, url.pathname);
  }
  // A path naming text no record can have names nothing: not found, as for any unknown id.
  if (unstorableText(path)) throw fail.noRoute(c.req.method, url.pathname);
  for (const [name, value] of url.searchParams) {
    const why = unstorableText(name) ?? unstorableText(value);
    if (why)
      throw fail.validation([{ type: 'string_unstorable', loc: ['query', unstorableText(name) ? '?' : name], msg: why, input: null }]);
  }
}

/**
 * Checks the URL, then a JSON body: its charset (UTF-8 only; 415 otherwise), depth, and text. The parsed
 * body is cached on the request, so routes read it without parsing again. A body that is not valid JSON
 * is left for the route's validator, which answers the contract's `json_invalid` 422.
 */
export const inputGuard = (maxDepth: number = INPUT_LIMITS.maxJsonDepth) =>
  createMiddleware<AppEnv>(async (c, next) => {
    checkPathAndQuery(c);
    const contentType = c.req.header('content-type');
    if (!c.req.raw.body || !contentType || !JSON_TYPE.test(contentType)) return next();
    const charset = charsetOf(contentType);
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      throw fail.unsupportedMediaType(`JSON bodies are read as UTF-8 only; charset=${charset.slice(0, 40)} is not accepted`);
    }
    const text = await c.req.text();
    if (jsonDepth(text, maxDepth) > maxDepth) {
      throw fail.validation([{ type: 'json_too_deep', loc: ['body'], msg: `JSON nested deeper than ${maxDepth} levels`, input: null }]);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return next();
    }
    const bad = findUnstorable(parsed, ['body']);
    if (bad) throw fail.validation([bad]);
    c.req.bodyCache.json = Promise.resolve(parsed);
    return next();
  });
