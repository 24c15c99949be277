/** What the user commands share: exit codes, output, option parsers and the ways a command ends. */
import type { AtelierClient } from '@atelier/client';
import type { Command } from 'commander';
import { ApiFailure, retryAfterSeconds } from './errors.js';
import { table } from './format.js';

export const EXIT = { ok: 0, unsuccessful: 1, usage: 2, api: 3 } as const;

/** Raised by command actions to end with a code (after printing what they had to say). */
export class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A usage error found after commander parsed the arguments (a bad --intake JSON, say). */
export class UsageError extends Error {}

export type OperatorMain = (argv: string[]) => Promise<number>;

export interface GlobalFlags {
  url?: string;
  apiKey?: string;
}

export const print = (line: string) => process.stdout.write(`${line}\n`);
export const printJson = (value: unknown) => print(JSON.stringify(value, null, 2));

/** A command on one record named by its id (`<what>`), whose --json prints the record as the API answers it. */
export function oneRecordCommand(parent: Command, name: string, description: string, what: string): Command {
  return parent.command(name).description(description).argument(`<${what}>`, `${what} id`).option('--json', `print the ${what} as JSON`);
}

/**
 * The flags a paged list ends with: --limit (default 20), the page's start (--offset, or the --cursor a
 * page printed where the list pages by cursor) and --json for the page as the API answers it.
 */
export function withPageFlags(list: Command, paging: 'offset' | 'cursor'): Command {
  list.option('--limit <n>', 'at most this many (default 20)', positiveInt('--limit'), 20);
  if (paging === 'offset') list.option('--offset <n>', 'skip this many', positiveInt('--offset'), 0);
  else list.option('--cursor <cursor>', 'the page after the one that printed this cursor');
  return list.option('--json', 'print the page as JSON');
}

/** An answer as it is with --json, else as `human` words it. */
export function printAnswer(value: unknown, json: boolean | undefined, human: () => string): void {
  if (json) printJson(value);
  else print(human());
}

/**
 * A page of a list command: the answer as it is with --json, else a table and how many of the matches it
 * shows, with the cursor of the next page where the list pages by cursor.
 */
export function printPage<T>(
  page: { items: T[]; total: number; nextCursor?: string | null },
  json: boolean | undefined,
  headers: string[],
  row: (item: T) => string[],
): void {
  if (json) {
    printJson(page);
    return;
  }
  print(table(page.items.map(row), headers));
  print(`${page.items.length} of ${page.total}${page.nextCursor ? `; next page: --cursor ${page.nextCursor}` : ''}`);
}

/** Ends the command with an API error: runCli prints it as a sentence (errors.ts), or its raw body with --json, and exits 3. */
export function apiErrorExit(status: number, body: unknown, what: string, headers?: Headers): never {
  throw new ApiFailure(status, body, what, retryAfterSeconds(headers));
}

/** The data of an openapi-fetch result, or exit 3 with the error on stderr. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  return apiErrorExit(result.response.status, result.error ?? null, what, result.response.headers);
}

/**
 * The flags a command was given, under the API's names for them (`{ workflow: 'templateId' }`): a flag left
 * out or empty is not sent, so the API applies its own default.
 */
export function given<O extends object, const N extends { readonly [F in keyof O]?: string }>(
  opts: O,
  names: N,
): { [F in keyof N & keyof O as N[F] & string]?: Exclude<O[F], undefined> } {
  const sent: Record<string, unknown> = {};
  for (const [flag, name] of Object.entries(names)) {
    const value = (opts as Record<string, unknown>)[flag];
    if (value) sent[name as string] = value;
  }
  return sent as never;
}

export function parseJson(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} is not valid JSON: ${(err as Error).message}`);
  }
}

/** `--intake '{"topic":"x"}'` plus any `--set key=value` (values parsed as JSON when they parse). */
export function intakeFrom(opts: { intake?: string; set?: string[] }): Record<string, unknown> {
  return objectFrom('--intake', opts.intake, opts.set);
}

/** A JSON object flag (`--intake`, `--patch`) with `--set key=value` pairs over it. */
export function objectFrom(flag: string, json: string | undefined, sets: string[] | undefined): Record<string, unknown> {
  const object = json ? parseJson(flag, json) : {};
  if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new UsageError(`${flag} must be a JSON object`);
  for (const pair of sets ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set expects key=value (got "${pair}")`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a plain string
    }
    (object as Record<string, unknown>)[pair.slice(0, eq)] = value;
  }
  return object as Record<string, unknown>;
}

/** `key=value` pairs of a repeatable flag (--provider, --meta) as an object; the value may hold `=`. */
export function pairs(flag: string, shape: string, given: string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (given ?? []).map((p) => {
      const eq = p.indexOf('=');
      if (eq <= 0) throw new UsageError(`${flag} expects ${shape} (got "${p}")`);
      return [p.slice(0, eq), p.slice(eq + 1)];
    }),
  );
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];
export const positiveInt = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number (got "${value}")`);
  return n;
};
export const usd = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be an amount in USD (got "${value}")`);
  return n;
};

export const RUN_SUCCESS = new Set(['completed', 'review']);

/** What every group of commands is registered with. */
export interface CommandContext {
  /** Wraps a user command: it gets a client and its arguments; its return value is the exit code. */
  act: <A extends unknown[]>(
    fn: (client: AtelierClient, ...args: A) => Promise<number | undefined>,
  ) => (...args: unknown[]) => Promise<void>;
  /** Hands an operator command to main.ts as the original argv. */
  operate: () => Promise<void>;
}
