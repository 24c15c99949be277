/** `atelier queue …` and `atelier artifacts …`: the review queue and its decisions, reading and downloading artifacts. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { AtelierApiError, type AtelierClient, type Run } from '@atelier/client';
import { ARTIFACT_CLASS_VALUES, ARTIFACT_STATUS_VALUES } from '@atelier/contracts/artifact-values';
import { decideCommands, holdNeeds, intakeSummary, researchReportMarkdown, table } from './format.js';
import {
  withPageFlags,
  oneRecordCommand,
  type CommandContext,
  EXIT,
  apiErrorExit,
  collect,
  given,
  objectFrom,
  ok,
  positiveInt,
  print,
  printJson,
  printPage,
} from './cli-kit.js';

type Decision = 'approve' | 'reject' | 'request_changes';
interface DecideOptions {
  note?: string;
  patch?: string;
  set?: string[];
  gate?: string;
  json?: boolean;
}

const DECIDED: Record<Decision, string> = { approve: 'approved', reject: 'rejected', request_changes: 'sent back for changes' };

async function decide(client: AtelierClient, runId: string, decision: Decision, opts: DecideOptions): Promise<number> {
  const patch = opts.patch || opts.set?.length ? objectFrom('--patch', opts.patch, opts.set) : undefined;
  const body = {
    decision,
    ...given(opts, { note: 'note', gate: 'gateId' }),
    ...(patch ? { patch } : {}),
  };
  const answer = ok(
    await client.POST('/v1/queue/{run_id}/decision', { params: { path: { run_id: runId } }, body }),
    `POST /v1/queue/${runId}/decision`,
  );
  if (opts.json) printJson(answer);
  else {
    const status = (answer as { status?: unknown }).status;
    print(`run ${runId} ${DECIDED[decision]}${typeof status === 'string' ? `: it is ${status}` : ''}`);
  }
  return EXIT.ok;
}

/** The runs of queue items, read a few at a time, for their intake; a run that cannot be read is left out. */
async function runsOf(client: AtelierClient, runIds: string[]): Promise<Map<string, Run>> {
  const runs = new Map<string, Run>();
  for (let i = 0; i < runIds.length; i += 8) {
    await Promise.all(
      runIds.slice(i, i + 8).map(async (id) => {
        const { data } = await client.GET('/v1/runs/{run_id}', { params: { path: { run_id: id } } });
        if (data) runs.set(id, data);
      }),
    );
  }
  return runs;
}

export function registerReviewCommands(program: Command, { act }: CommandContext): void {
  // ---- queue ----
  const queue = program.command('queue').description('the review queue: runs waiting on an approval gate, and deciding them (API)');
  queue
    .command('list')
    .description('runs in review, oldest first, each with its gate, what the hold needs, its intake and how to decide it (GET /v1/queue)')
    .option('--workspace <id>', 'workspace id')
    .option('--project <id>', 'project id')
    .option('--workflow <id>', 'only this workflow')
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 50)
    .option('--json', 'print the page as JSON')
    .action(
      act(async (client, opts: { workspace?: string; project?: string; workflow?: string; limit: number; json?: boolean }) => {
        const query = {
          limit: opts.limit,
          ...given(opts, { workspace: 'workspaceId', project: 'projectId', workflow: 'templateId' }),
        };
        const page = ok(await client.GET('/v1/queue', { params: { query } }), 'GET /v1/queue');
        if (opts.json) {
          printJson(page);
          return EXIT.ok;
        }
        const runs = await runsOf(
          client,
          page.items.map((q) => q.runId),
        );
        for (const q of page.items) {
          const checks = q.qa?.checks ?? [];
          const open = checks.filter((c) => c.status !== 'pass');
          print(`${q.runId}  ${q.templateId}  in review since ${q.enteredReviewAt}`);
          print(
            table([
              ['  gate', q.gateName ? `${q.gateName}${q.gateId ? ` (${q.gateId})` : ''}` : (q.gateId ?? '-')],
              ['  needs', holdNeeds(q.holdFields)],
              ['  intake', intakeSummary(runs.get(q.runId)?.intake)],
              ['  artifact', q.artifactId ? `${q.artifactId}${q.artifactTitle ? ` "${q.artifactTitle}"` : ''}` : '-'],
              [
                '  qa',
                q.qa
                  ? `${q.qa.status}, ${checks.length - open.length}/${checks.length} checks pass${open.length ? ` (${open.map((c) => `${c.label}: ${c.status}`).join('; ')}; approval waits for them)` : ''}`
                  : '-',
              ],
              ...decideCommands(q.runId, q.holdFields).map((c, i) => [i === 0 ? '  decide' : '', c]),
            ]),
          );
          print('');
        }
        print(`${page.items.length} of ${page.total} in review`);
        return EXIT.ok;
      }),
    );
  const decisionOptions = (cmd: Command, withPatch: boolean) => {
    cmd.argument('<run>', 'run id').option('--note <text>', 'kept in the decision ledger with who and when');
    if (withPatch)
      cmd
        .option('--set <field=value>', 'a field the hold asks for (repeatable; `queue list` names them)', collect)
        .option('--patch <json>', 'all the fields the hold asks for, as a JSON object');
    return cmd.option('--gate <id>', 'the gate the run must be waiting on').option('--json', 'print the run as JSON');
  };
  decisionOptions(
    queue
      .command('approve')
      .description('approve a run in review: it completes and its artifact is approved (POST /v1/queue/{run_id}/decision)'),
    true,
  ).action(act(async (client, runId: string, opts: DecideOptions) => decide(client, runId, 'approve', opts)));
  decisionOptions(queue.command('reject').description('reject a run in review: it ends rejected, and so does its artifact'), false).action(
    act(async (client, runId: string, opts: DecideOptions) => decide(client, runId, 'reject', opts)),
  );
  decisionOptions(
    queue.command('request-changes').description('send a run in review back: it ends changes_requested, its artifact back to draft'),
    false,
  ).action(act(async (client, runId: string, opts: DecideOptions) => decide(client, runId, 'request_changes', opts)));
  queue
    .command('decide')
    .description('approve, reject or request changes, the decision as an option (POST /v1/queue/{run_id}/decision)')
    .argument('<run>', 'run id')
    .addOption(new Option('--decision <decision>', 'the decision').choices(['approve', 'reject', 'request_changes']).makeOptionMandatory())
    .option('--note <text>', 'kept in the decision ledger')
    .option('--patch <json>', 'the fields a typed hold asks for (JSON object)')
    .option('--set <field=value>', 'one field the hold asks for (repeatable)', collect)
    .option('--gate <id>', 'the gate the run must be waiting on')
    .option('--json', 'print the answer as JSON')
    .action(act(async (client, runId: string, opts: DecideOptions & { decision: Decision }) => decide(client, runId, opts.decision, opts)));

  // ---- artifacts ----
  const artifacts = program.command('artifacts').description('read and download artifacts (API)');
  withPageFlags(
    artifacts
      .command('list')
      .description("the workspace's artifacts, newest first (GET /v1/artifacts)")
      .option('--run <id>', 'only the artifacts of this run')
      .option('--type <type>', 'only artifacts of this type, e.g. illustration')
      .addOption(new Option('--class <class>', 'only artifacts of this class').choices([...ARTIFACT_CLASS_VALUES]))
      .addOption(new Option('--status <status>', 'only artifacts in this status').choices([...ARTIFACT_STATUS_VALUES]))
      .option('--workspace <id>', 'workspace id')
      .option('--project <id>', 'project id'),
    'offset',
  ).action(
    act(
      async (
        client,
        opts: {
          run?: string;
          type?: string;
          class?: (typeof ARTIFACT_CLASS_VALUES)[number];
          status?: (typeof ARTIFACT_STATUS_VALUES)[number];
          workspace?: string;
          project?: string;
          limit: number;
          offset: number;
          json?: boolean;
        },
      ) => {
        const query = {
          limit: opts.limit,
          offset: opts.offset,
          ...given(opts, {
            run: 'runId',
            type: 'artifactType',
            class: 'artifactClass',
            status: 'status',
            workspace: 'workspaceId',
            project: 'projectId',
          }),
        };
        const page = ok(await client.GET('/v1/artifacts', { params: { query } }), 'GET /v1/artifacts');
        printPage(page, opts.json, ['artifact', 'type', 'status', 'run', 'created', 'title'], (a) => [
          a.id,
          `${a.artifactClass}/${a.artifactType}`,
          a.status,
          a.runId ?? '-',
          a.createdAt,
          a.title,
        ]);
        return EXIT.ok;
      },
    ),
  );
  oneRecordCommand(artifacts, 'show', 'an artifact with its content and QA record (GET /v1/artifacts/{id})', 'artifact').action(
    act(async (client, artifactId: string, opts: { json?: boolean }) => {
      const a = ok(
        await client.GET('/v1/artifacts/{artifact_id}', { params: { path: { artifact_id: artifactId } } }),
        `GET /v1/artifacts/${artifactId}`,
      );
      if (opts.json) printJson(a);
      else {
        const content = a.content as Record<string, unknown>;
        print(
          table([
            ['id', a.id],
            ['title', a.title],
            ['type', `${a.artifactClass}/${a.artifactType} v${a.version}`],
            ['status', a.status],
            ['run', a.runId ?? '-'],
            ['qa', `${a.qa.status} (${a.qa.checks.filter((c) => c.status === 'pass').length}/${a.qa.checks.length} checks pass)`],
            ...(typeof content.url === 'string' ? [['file', content.url]] : []),
            ['created', a.createdAt],
          ]),
        );
        for (const c of a.qa.checks.filter((c) => c.status !== 'pass')) print(`  ${c.status}: ${c.label} — ${c.detail}`);
      }
      return EXIT.ok;
    }),
  );
  artifacts
    .command('download')
    .description('write artifact.json and the artifact’s files into a directory; a research report also as report.md')
    .argument('<artifact>', 'artifact id')
    .option('--dir <dir>', 'target directory (default ./<artifact id>)')
    .option('--json', 'print what was written as JSON')
    .action(
      act(async (client, artifactId: string, opts: { dir?: string; json?: boolean }) => {
        let result: Awaited<ReturnType<AtelierClient['downloadArtifactFiles']>>;
        try {
          result = await client.downloadArtifactFiles(artifactId, opts.dir ?? artifactId);
        } catch (err) {
          if (err instanceof AtelierApiError) apiErrorExit(err.status, err.body, `${err.method} ${err.path}`);
          throw err;
        }
        // A research report is text: its content, as Markdown beside artifact.json, is the readable copy.
        const markdown = researchReportMarkdown(result.artifact.content);
        const reportPath = markdown === undefined ? undefined : path.join(path.dirname(result.metadataPath), 'report.md');
        if (reportPath && markdown !== undefined) await writeFile(reportPath, markdown);
        if (opts.json) printJson({ metadataPath: result.metadataPath, files: result.files, ...(reportPath ? { reportPath } : {}) });
        else {
          print(`wrote ${result.metadataPath}`);
          if (reportPath && markdown !== undefined) print(`wrote ${reportPath} (${Buffer.byteLength(markdown)} bytes)`);
          for (const f of result.files) print(`wrote ${f.path} (${f.bytes} bytes)`);
        }
        return EXIT.ok;
      }),
    );
}
