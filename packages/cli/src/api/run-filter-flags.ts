/** The run filter flags `runs list` and the bulk commands share, so a bulk command chooses what `runs list` with the same flags shows. */
import { type Command, Option } from 'commander';
import { RUN_STATUS_VALUES } from '@atelier/contracts/run-statuses';
import { collect, pairs } from './cli-kit.js';

export interface RunFilterFlags {
  status?: (typeof RUN_STATUS_VALUES)[number];
  workflow?: string;
  workspace?: string;
  project?: string;
  order?: string;
  tag?: string[];
  meta?: string[];
  rerunOf?: string;
}

export function addRunFilterFlags(command: Command): Command {
  return command
    .addOption(new Option('--status <status>', 'only runs in this status').choices([...RUN_STATUS_VALUES]))
    .option('--workflow <id>', 'only runs of this workflow (template id)')
    .option('--workspace <id>', 'workspace id')
    .option('--project <id>', 'project id')
    .option('--order <id>', 'only the children of this order')
    .option('--tag <tag>', 'only runs carrying this tag (repeatable: all of them)', collect)
    .option('--meta <key=value>', 'only runs with this metadata entry (repeatable: all of them)', collect)
    .option('--rerun-of <id>', 'only the reruns of this run');
}

/** The flags as GET /v1/runs's filter fields (the query and the bulk actions' `filter` name them alike). */
export function runFilterOf(opts: RunFilterFlags) {
  return {
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.workflow ? { templateId: opts.workflow } : {}),
    ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
    ...(opts.project ? { projectId: opts.project } : {}),
    ...(opts.order ? { parentOrderId: opts.order } : {}),
    ...(opts.tag ? { tag: opts.tag } : {}),
    // In a query, sent as metadata[<key>]=<value> (the client's deepObject serialization); in a body, an object.
    ...(opts.meta ? { metadata: pairs('--meta', 'key=value', opts.meta) } : {}),
    ...(opts.rerunOf ? { rerunOf: opts.rerunOf } : {}),
  };
}
