/** `atelier runs …`: start, rerun, list, show, watch and cancel through the API; finalize, reconcile and reset handed to main.ts. */
import type { Command } from 'commander';
import type { AtelierClient, Run } from '@atelier/client';
import { decideCommands, describeRunEvent, holdNeeds, money, table } from './format.js';
import { registerRunBulkCommands } from './run-bulk-commands.js';
import { type RunFilterFlags, addRunFilterFlags, runFilterOf } from './run-filter-flags.js';
import {
  withPageFlags,
  oneRecordCommand,
  type CommandContext,
  EXIT,
  RUN_SUCCESS,
  collect,
  intakeFrom,
  objectFrom,
  ok,
  pairs,
  print,
  printAnswer,
  printJson,
  printPage,
} from './cli-kit.js';

function runSummary(run: Run): string[][] {
  return [
    ['id', run.id],
    ['workflow', `${run.templateId} ${run.workflowVersion}`],
    ['status', run.status],
    ['created', run.createdAt],
    ['finished', run.finishedAt ?? '-'],
    ['cost', `${money(run.totalCosts.actualUsd)} (estimated ${money(run.totalCosts.estimatedUsd)})`],
    ['artifact', run.artifactId ?? '-'],
    // A gateway older than tags sends neither: shown as none.
    ...(run.tags?.length ? [['tags', run.tags.join(' ')]] : []),
    ...Object.entries(run.metadata ?? {}).map(([key, value]) => [`meta ${key}`, value]),
    ...(run.error ? [['error', `${run.errorCode ? `${run.errorCode}: ` : ''}${run.error}`]] : []),
    ...(run.parentOrderId ? [['order', run.parentOrderId]] : []),
  ];
}

/** The line a started run is announced with: its id first, so scripts can cut it. */
function startedLine(run: Run): string {
  const rerun = run.rerunOf ? `, rerun of ${run.rerunOf}` : '';
  const tags = run.tags?.length ? ` tags: ${run.tags.join(' ')}` : '';
  return `run ${run.id} ${run.status} (${run.templateId} ${run.workflowVersion}, estimated ${money(run.totalCosts.estimatedUsd)}${rerun})${tags}`;
}

/** For a run in review: the gate it waits on, what the hold needs and the commands that decide it. */
function reviewHint(run: Run): string {
  const gate = run.reviewGate;
  const at = gate ? ` at the gate "${gate.name}" (${gate.id})` : '';
  return [
    `run ${run.id} waits in review${at}${run.artifactId ? ` with artifact ${run.artifactId}` : ''}; it needs ${holdNeeds(gate?.holdFields)}.`,
    'Decide it with one of:',
    ...decideCommands(run.id, gate?.holdFields).map((c) => `  ${c}`),
  ].join('\n');
}

function printRun(run: Run) {
  print(table(runSummary(run)));
  if (run.runSteps.length > 0) {
    print('');
    print(
      table(
        run.runSteps.map((s, i) => [
          String(i),
          s.id,
          s.kind,
          s.status,
          s.model ?? '-',
          s.durationMs === null ? '-' : `${s.durationMs} ms`,
          money(s.costActualUsd),
          s.error ?? '',
        ]),
        ['#', 'step', 'kind', 'status', 'model', 'took', 'cost', 'error'],
      ),
    );
  }
  if (run.status === 'review') print(`\n${reviewHint(run)}`);
}

/** Follows a run's event stream, printing each step as it happens; 0 when it completed (or waits in review), 1 otherwise. */
async function watchRun(client: AtelierClient, runId: string, json: boolean): Promise<number> {
  const run = await client.waitForRun(runId, {
    timeoutMs: 24 * 3600_000,
    onEvent: (e) => {
      if (json) print(JSON.stringify(e));
      else {
        const line = describeRunEvent(e);
        if (line) print(line);
      }
    },
  });
  if (json) print(JSON.stringify({ event: 'end', data: run }));
  else {
    print(`run ${run.id} ended ${run.status}${run.error ? `: ${run.error}` : ''}${run.artifactId ? ` (artifact ${run.artifactId})` : ''}`);
    if (run.status === 'review') print(reviewHint(run));
  }
  return RUN_SUCCESS.has(run.status) ? EXIT.ok : EXIT.unsuccessful;
}

export function registerRunCommands(program: Command, { act, operate }: CommandContext): void {
  // ---- runs ----
  const runs = program
    .command('runs')
    .description('start, rerun, list, show, watch and cancel runs (API); finalize, reconcile and reset (operator)');
  runs
    .command('start')
    .description('start a run of a workflow (POST /v1/runs)')
    .argument('<workflow>', 'workflow (template) id, e.g. plan-research-report')
    .option('--intake <json>', 'the intake as a JSON object')
    .option('--set <key=value>', 'one intake field (repeatable; JSON values parsed)', collect)
    .option('--workspace <id>', 'workspace id (default: the key’s or your only workspace)')
    .option('--project <id>', 'project id')
    .option('--provider <role=model>', 'model for a role, this run only (repeatable)', collect)
    .option('--tag <tag>', 'a tag for the run (repeatable; letters, digits and _ . : -)', collect)
    .option('--meta <key=value>', 'a metadata entry for the run (repeatable)', collect)
    .option('--watch', 'follow the run until it ends (exit code as `runs watch`)')
    .option('--json', 'print the run as JSON')
    .action(
      act(
        async (
          client,
          templateId: string,
          opts: {
            intake?: string;
            set?: string[];
            workspace?: string;
            project?: string;
            provider?: string[];
            tag?: string[];
            meta?: string[];
            watch?: boolean;
            json?: boolean;
          },
        ) => {
          const providers = pairs('--provider', 'role=model', opts.provider);
          const body = {
            templateId,
            intake: intakeFrom(opts),
            ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
            ...(opts.project ? { projectId: opts.project } : {}),
            ...(opts.provider ? { providers } : {}),
            ...(opts.tag ? { tags: opts.tag } : {}),
            ...(opts.meta ? { metadata: pairs('--meta', 'key=value', opts.meta) } : {}),
          };
          const run = ok(await client.POST('/v1/runs', { body }), 'POST /v1/runs');
          printAnswer(run, opts.json, () => startedLine(run));
          return opts.watch ? watchRun(client, run.id, Boolean(opts.json)) : EXIT.ok;
        },
      ),
    );
  runs
    .command('rerun')
    .description('start a run again at the version it pinned, with its intake and models (POST /v1/runs/{id}/rerun)')
    .argument('<run>', 'run id')
    .option('--intake-json <json>', "intake fields over the original's, as a JSON object (keys given replace the original's)")
    .option('--set <key=value>', 'one intake field over the original (repeatable; JSON values parsed)', collect)
    .option('--provider <role=model>', "model for a role instead of the original's (repeatable)", collect)
    .option('--dry-run', 'create nothing: print the estimate and what would be started')
    .option('--watch', 'follow the new run until it ends (exit code as `runs watch`)')
    .option('--json', 'print the run (or the dry run) as JSON')
    .action(
      act(
        async (
          client,
          runId: string,
          opts: { intakeJson?: string; set?: string[]; provider?: string[]; dryRun?: boolean; watch?: boolean; json?: boolean },
        ) => {
          const intake = objectFrom('--intake-json', opts.intakeJson, opts.set);
          const body = {
            ...(Object.keys(intake).length > 0 ? { intake } : {}),
            ...(opts.provider ? { providers: pairs('--provider', 'role=model', opts.provider) } : {}),
            ...(opts.dryRun ? { dryRun: true } : {}),
          };
          const what = `POST /v1/runs/${runId}/rerun`;
          const answer = ok(await client.POST('/v1/runs/{run_id}/rerun', { params: { path: { run_id: runId } }, body }), what);
          if ('estimate' in answer) {
            if (opts.json) printJson(answer);
            else {
              const { estimate: e, wouldCreate: w } = answer;
              print(
                `dry run: a rerun of ${runId} would start ${w.templateId} ${w.workflowVersion}, estimated ${money(e.typical)} (${money(e.min)} to ${money(e.max)}); nothing was created`,
              );
            }
            return EXIT.ok;
          }
          printAnswer(answer, opts.json, () => startedLine(answer));
          return opts.watch ? watchRun(client, answer.id, Boolean(opts.json)) : EXIT.ok;
        },
      ),
    );
  withPageFlags(addRunFilterFlags(runs.command('list').description('list runs, newest first (GET /v1/runs)')), 'offset').action(
    act(async (client, opts: RunFilterFlags & { limit: number; offset: number; json?: boolean }) => {
      const query = { limit: opts.limit, offset: opts.offset, ...runFilterOf(opts) };
      const page = ok(await client.GET('/v1/runs', { params: { query } }), 'GET /v1/runs');
      printPage(page, opts.json, ['run', 'workflow', 'status', 'created', 'cost', 'artifact', 'tags'], (r) => [
        r.id,
        r.templateId,
        r.status,
        r.createdAt,
        money(r.totalCosts.actualUsd),
        r.artifactId ?? '-',
        r.tags?.join(' ') || '-',
      ]);
      return EXIT.ok;
    }),
  );
  oneRecordCommand(runs, 'show', 'a run with its steps and costs (GET /v1/runs/{id})', 'run').action(
    act(async (client, runId: string, opts: { json?: boolean }) => {
      const run = ok(await client.GET('/v1/runs/{run_id}', { params: { path: { run_id: runId } } }), `GET /v1/runs/${runId}`);
      if (opts.json) printJson(run);
      else printRun(run);
      return EXIT.ok;
    }),
  );
  runs
    .command('watch')
    .description('follow a run live, one line per step event, until it ends (exit 0 completed or review, 1 failed/cancelled/rejected)')
    .argument('<run>', 'run id')
    .option('--json', 'one JSON event per line')
    .action(act(async (client, runId: string, opts: { json?: boolean }) => watchRun(client, runId, Boolean(opts.json))));
  oneRecordCommand(runs, 'cancel', 'stop a run at its next step boundary (POST /v1/runs/{id}/cancel)', 'run').action(
    act(async (client, runId: string, opts: { json?: boolean }) => {
      const run = ok(
        await client.POST('/v1/runs/{run_id}/cancel', { params: { path: { run_id: runId } } }),
        `POST /v1/runs/${runId}/cancel`,
      );
      if (opts.json) printJson(run);
      else print(`run ${run.id} is ${run.status}${run.status === 'cancelled' ? '' : '; it stops at its next step boundary'}`);
      return EXIT.ok;
    }),
  );
  registerRunBulkCommands(runs, act);
  runs
    .command('finalize')
    .description('operator: write the artifact and terminal status of a run whose steps all completed (PostgreSQL + Temporal)')
    .argument('<run>', 'run id')
    .action(operate);
  runs
    .command('reconcile')
    .description('operator: settle runs and orders stuck without a live workflow, one reconciler pass (PostgreSQL + Temporal)')
    .option('--dry-run', 'only report what would be settled')
    .action(operate);
  runs
    .command('reset')
    .description("operator: reset the run's workflow to its last completed workflow task (replays on current code; Temporal)")
    .argument('<run>', 'run id')
    .argument('[why...]', 'reason recorded with the reset')
    .action(operate);
}
