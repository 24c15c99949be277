/** `atelier workflows …`: list, show and dry-run through the API; validate the built-in files (main.ts). */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { intakeFieldRows, money, table } from './format.js';
import {
  oneRecordCommand,
  type CommandContext,
  EXIT,
  UsageError,
  collect,
  given,
  intakeFrom,
  ok,
  parseJson,
  positiveInt,
  print,
  printAnswer,
  printJson,
} from './cli-kit.js';

export function registerWorkflowCommands(program: Command, { act, operate }: CommandContext): void {
  // ---- workflows ----
  const workflows = program.command('workflows').description('list, show and dry-run workflows (API); validate the built-in files (local)');
  workflows
    .command('list')
    .description('workflows you can run: the built-ins and your workspace’s (GET /v1/workflows)')
    .option('--workspace <id>', 'workspace id')
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 100)
    .option('--json', 'print the page as JSON')
    .action(
      act(async (client, opts: { workspace?: string; limit: number; json?: boolean }) => {
        const page = ok(
          await client.GET('/v1/workflows', {
            params: { query: { limit: opts.limit, ...given(opts, { workspace: 'workspaceId' }) } },
          }),
          'GET /v1/workflows',
        );
        printAnswer(page, opts.json, () =>
          table(
            page.items.map((w) => [w.id, w.name, w.liveVersion ?? '(draft)', w.builtin ? 'built-in' : 'workspace', w.status, w.visibility]),
            ['workflow', 'name', 'live version', 'owner', 'status', 'visibility'],
          ),
        );
        return EXIT.ok;
      }),
    );
  oneRecordCommand(
    workflows,
    'show',
    'a workflow: its versions, the intake fields it asks for and its steps (GET /v1/workflows/{id})',
    'workflow',
  ).action(
    act(async (client, id: string, opts: { json?: boolean }) => {
      const w = ok(await client.GET('/v1/workflows/{id}', { params: { path: { id } } }), `GET /v1/workflows/${id}`);
      if (opts.json) printJson(w);
      else {
        print(
          table([
            ['id', w.id],
            ['name', w.name],
            ['live version', w.liveVersion ?? '-'],
            ['draft', w.draftVersion ?? '-'],
            ['status', w.status],
            ['shown', w.definitionVersion],
          ]),
        );
        const fields = intakeFieldRows(w.definition);
        print(
          fields.length
            ? `\nIntake (give each with --set name=value, or all as --intake '{...}'):\n${table(fields, ['field', 'type', 'required', 'notes'])}`
            : '\nIntake: no fields',
        );
        const steps = (w.definition as { runtimeSteps?: Array<{ id?: string; name?: string; kind?: string }> }).runtimeSteps ?? [];
        if (steps.length)
          print(
            `\n${table(
              steps.map((s, i) => [String(i), s.id ?? '', s.kind ?? '', s.name ?? '']),
              ['#', 'step', 'kind', 'name'],
            )}`,
          );
      }
      return EXIT.ok;
    }),
  );
  workflows
    .command('dry-run')
    .description(
      'check a draft definition file (JSON) against an intake without running it (POST /v1/workflows/dry-run); exit 1 when it has errors',
    )
    .argument('<file>', 'a WorkflowDefinition as JSON')
    .option('--intake <json>', 'an intake to resolve against its intakeSchema')
    .option('--set <key=value>', 'one intake field (repeatable)', collect)
    .option('--json', 'print the answer as JSON')
    .action(
      act(async (client, file: string, opts: { intake?: string; set?: string[]; json?: boolean }) => {
        const definition = parseJson(file, await readFile(file, 'utf8'));
        if (typeof definition !== 'object' || definition === null) throw new UsageError(`${file} must hold a JSON object`);
        const body = { ...(definition as Record<string, unknown>), ...(opts.intake || opts.set ? { intake: intakeFrom(opts) } : {}) };
        const answer = ok(await client.POST('/v1/workflows/dry-run', { body }), 'POST /v1/workflows/dry-run');
        if (opts.json) printJson(answer);
        else {
          print(`${answer.ok ? 'ok' : 'FAIL'}: ${answer.stepCount} steps, typically ${money(answer.estimate?.estimatedCost?.typical)}`);
          for (const e of answer.errors) print(`  error: ${e}`);
          for (const w of answer.warnings) print(`  warning: ${w}`);
        }
        return answer.ok ? EXIT.ok : EXIT.unsuccessful;
      }),
    );
  workflows.command('validate').description('check every built-in workflow definition file (local, no API)').action(operate);
}
