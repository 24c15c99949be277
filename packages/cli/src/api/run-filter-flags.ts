/** The run filter flags `runs list` and the bulk commands share, so a bulk command chooses what `runs list` with the same flags shows. */
import { type Command, Option } from 'commander';
import { RUN_STATUS_VALUES } from '@atelier/contracts/run-statuses';
import { UsageError, collect, given, pairs } from './cli-kit.js';

export interface RunFilterFlags {
  status?: (typeof RUN_STATUS_VALUES)[number];
  workflow?: string;
  workspace?: string;
  project?: string;
  order?: string;
  tag?: string[];
  meta?: string[];
  rerunOf?: string;
  since?: string;
  until?: string;
  search?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/i;

/**
 * --since and --until as the instant the API takes. A bare date is its first moment in UTC, not in the local
 * zone, so a script gives the same window wherever it runs; with --until exclusive, as createdBefore is,
 * `--since 2026-11-01 --until 2026-11-02` is that one day. An instant is passed on as written (its
 * fraction may be finer than a JavaScript Date keeps).
 */
export const instantFlag = (flag: string) => (value: string) => {
  const date = DATE.test(value);
  const instant = date ? `${value}T00:00:00Z` : value;
  const ms = INSTANT.test(instant) ? Date.parse(instant) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to March: a date has to come back as it was written.
  if (Number.isNaN(ms) || (date && !new Date(ms).toISOString().startsWith(value))) {
    throw new UsageError(
      `${flag} expects a date (2026-11-01, from 00:00 UTC) or an instant with an offset (2026-11-01T09:30:00+01:00); got "${value}"`,
    );
  }
  return instant;
};

export function addRunFilterFlags(command: Command): Command {
  return command
    .addOption(new Option('--status <status>', 'only runs in this status').choices([...RUN_STATUS_VALUES]))
    .option('--workflow <id>', 'only runs of this workflow (template id)')
    .option('--workspace <id>', 'workspace id')
    .option('--project <id>', 'project id')
    .option('--order <id>', 'only the children of this order')
    .option('--tag <tag>', 'only runs carrying this tag (repeatable: all of them)', collect)
    .option('--meta <key=value>', 'only runs with this metadata entry (repeatable: all of them)', collect)
    .option('--rerun-of <id>', 'only the reruns of this run')
    .option('--since <date|instant>', 'only runs created at or after this (a date is 00:00 UTC)', instantFlag('--since'))
    .option('--until <date|instant>', 'only runs created before this, exclusive (a date is 00:00 UTC)', instantFlag('--until'))
    .option('--search <text>', 'only runs whose id, workflow id or name, or a tag, contains this text (case aside)');
}

/** The flags as GET /v1/runs's filter fields (the query and the bulk actions' `filter` name them alike). */
export function runFilterOf(opts: RunFilterFlags) {
  return {
    ...given(opts, {
      status: 'status',
      workflow: 'templateId',
      workspace: 'workspaceId',
      project: 'projectId',
      order: 'parentOrderId',
      tag: 'tag',
      rerunOf: 'rerunOf',
      since: 'createdAfter',
      until: 'createdBefore',
      search: 'q',
    }),
    // In a query, sent as metadata[<key>]=<value> (the client's deepObject serialization); in a body, an object.
    ...(opts.meta ? { metadata: pairs('--meta', 'key=value', opts.meta) } : {}),
  };
}
