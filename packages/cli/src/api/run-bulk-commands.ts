/** `atelier runs cancel-many` and `atelier runs rerun-many`: POST /v1/runs/bulk-cancel and bulk-rerun, shown first and confirmed. */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { AtelierClient } from '@atelier/client';
import { type CommandContext, EXIT, UsageError, collect, objectFrom, ok, pairs, positiveInt, print, printJson } from './cli-kit.js';
import { money } from './format.js';
import { type RunFilterFlags, addRunFilterFlags, runFilterOf } from './run-filter-flags.js';

interface BulkFlags extends RunFilterFlags {
  limit: number;
  dryRun?: boolean;
  yes?: boolean;
  json?: boolean;
}

interface Skipped {
  runId: string;
  reason: string;
  status?: string;
}
interface Failed {
  runId: string;
  status: number;
  detail?: unknown;
}

/** What one bulk action needs: its endpoint through the client, and its verb in what is printed. */
interface BulkAction {
  verb: string;
  send: (
    client: AtelierClient,
    dryRun: boolean,
  ) => Promise<
    | { dryRun: true; matched: number; wouldAct: string[]; skipped: Skipped[]; wouldFail?: Failed[]; estimateUsd?: number }
    | {
        dryRun: false;
        matched: number;
        acted: string[];
        skipped: Skipped[];
        failed: Failed[];
        reruns?: Array<{ runId: string; rerunOf: string }>;
      }
  >;
}

const detailText = (detail: unknown) => (typeof detail === 'string' ? detail : JSON.stringify(detail));
const skippedLine = (s: Skipped) =>
  `skipped ${s.runId}: ${s.reason === 'terminal' ? `already ${s.status ?? 'ended'}` : 'a budget refused an earlier rerun'}`;
const failedLine = (f: Failed) => `failed ${f.runId}: ${f.status} ${detailText(f.detail)}`;
const ids = (list: string[]) => (list.length ? `: ${list.join(' ')}` : '');

async function confirmed(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/**
 * The dry run, then (unless --dry-run) the action. Without --yes the dry run is shown and confirmed at a
 * terminal; elsewhere the command refuses rather than act on runs nobody saw. The action applies the filter
 * as it stands when confirmed: runs may have moved on since the dry run, and the answer says what was done.
 */
async function runBulk(client: AtelierClient, opts: BulkFlags, action: BulkAction): Promise<number> {
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  if (!opts.dryRun && !opts.yes && !interactive) {
    throw new UsageError(`refusing to ${action.verb} runs without --yes when not at a terminal; see what would be done with --dry-run`);
  }
  if (opts.dryRun || !opts.yes) {
    const dry = await action.send(client, true);
    if (!dry.dryRun) throw new Error('the gateway acted on a dry run');
    if (opts.json && opts.dryRun) {
      printJson(dry);
      return EXIT.ok;
    }
    print(`${dry.matched} runs match; would ${action.verb} ${dry.wouldAct.length}${ids(dry.wouldAct)}`);
    for (const s of dry.skipped) print(skippedLine(s));
    for (const f of dry.wouldFail ?? []) print(`would fail ${f.runId}: ${f.status} ${detailText(f.detail)}`);
    if (dry.estimateUsd !== undefined) print(`estimated ${money(dry.estimateUsd)} in all`);
    if (opts.dryRun) {
      print('dry run: nothing was changed');
      return EXIT.ok;
    }
    if (dry.wouldAct.length === 0) {
      print('nothing to do');
      return EXIT.ok;
    }
    if (!(await confirmed(`${action.verb} ${dry.wouldAct.length} runs? [y/N] `))) {
      print('nothing was changed');
      return EXIT.unsuccessful;
    }
  }
  const done = await action.send(client, false);
  if (done.dryRun) throw new Error('the gateway answered a dry run');
  if (opts.json) printJson(done);
  else {
    print(`${done.matched} runs matched; ${action.verb} ${done.acted.length}${ids(done.acted)}`);
    for (const r of done.reruns ?? []) print(`run ${r.runId} pending, rerun of ${r.rerunOf}`);
    for (const s of done.skipped) print(skippedLine(s));
    for (const f of done.failed) print(failedLine(f));
  }
  return done.failed.length > 0 ? EXIT.unsuccessful : EXIT.ok;
}

function bulkCommand(parent: Command, name: string, description: string): Command {
  return addRunFilterFlags(parent.command(name).description(description))
    .option('--limit <n>', 'refuse (change nothing) when more runs than this match (1–1000, default 100)', positiveInt('--limit'), 100)
    .option('--dry-run', 'change nothing: print what would be done')
    .option('--yes', 'act without showing the dry run and asking first (needed when not at a terminal)')
    .option('--json', 'print the answer as JSON');
}

export function registerRunBulkCommands(runs: Command, act: CommandContext['act']): void {
  bulkCommand(runs, 'cancel-many', 'cancel every run the filter flags choose that has not ended (POST /v1/runs/bulk-cancel)').action(
    act(async (client, opts: BulkFlags) =>
      runBulk(client, opts, {
        verb: 'cancel',
        send: async (c, dryRun) =>
          ok(
            await c.POST('/v1/runs/bulk-cancel', { body: { filter: runFilterOf(opts), limit: opts.limit, dryRun } }),
            'POST /v1/runs/bulk-cancel',
          ),
      }),
    ),
  );
  bulkCommand(runs, 'rerun-many', 'rerun every run the filter flags choose, each at the version it pinned (POST /v1/runs/bulk-rerun)')
    .option('--intake-json <json>', "intake fields over each original's, as a JSON object")
    .option('--set <key=value>', "one intake field over each original's (repeatable; JSON values parsed)", collect)
    .option('--provider <role=model>', "model for a role instead of each original's (repeatable)", collect)
    .action(
      act(async (client, opts: BulkFlags & { intakeJson?: string; set?: string[]; provider?: string[] }) => {
        const intake = objectFrom('--intake-json', opts.intakeJson, opts.set);
        const overrides = {
          ...(Object.keys(intake).length > 0 ? { intake } : {}),
          ...(opts.provider ? { providers: pairs('--provider', 'role=model', opts.provider) } : {}),
        };
        return runBulk(client, opts, {
          verb: 'rerun',
          send: async (c, dryRun) =>
            ok(
              await c.POST('/v1/runs/bulk-rerun', { body: { filter: runFilterOf(opts), limit: opts.limit, dryRun, ...overrides } }),
              'POST /v1/runs/bulk-rerun',
            ),
        });
      }),
    );
}
