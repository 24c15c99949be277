/** `atelier queue …` and `atelier artifacts …`: the review queue and its decisions, reading and downloading artifacts. */
import { type Command, Option } from 'commander';
import { AtelierApiError, type AtelierClient } from '@atelier/client';
import { table } from './format.js';
import { type CommandContext, EXIT, apiErrorExit, ok, parseJson, positiveInt, print, printJson } from './cli-kit.js';

export function registerReviewCommands(program: Command, { act }: CommandContext): void {
  // ---- queue ----
  const queue = program.command('queue').description('the review queue: runs waiting on an approval gate (API)');
  queue
    .command('list')
    .description('runs in review, oldest first (GET /v1/queue)')
    .option('--workspace <id>', 'workspace id')
    .option('--project <id>', 'project id')
    .option('--workflow <id>', 'only this workflow')
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 50)
    .option('--json', 'print the page as JSON')
    .action(
      act(async (client, opts: { workspace?: string; project?: string; workflow?: string; limit: number; json?: boolean }) => {
        const query = {
          limit: opts.limit,
          ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
          ...(opts.project ? { projectId: opts.project } : {}),
          ...(opts.workflow ? { templateId: opts.workflow } : {}),
        };
        const page = ok(await client.GET('/v1/queue', { params: { query } }), 'GET /v1/queue');
        if (opts.json) printJson(page);
        else {
          print(
            table(
              page.items.map((q) => [
                q.runId,
                q.templateId,
                q.gateName ?? q.gateId ?? '-',
                q.artifactId ?? '-',
                q.qa?.status ?? '-',
                q.enteredReviewAt,
              ]),
              ['run', 'workflow', 'gate', 'artifact', 'qa', 'in review since'],
            ),
          );
          print(`${page.items.length} of ${page.total}`);
        }
        return EXIT.ok;
      }),
    );
  queue
    .command('decide')
    .description('approve, reject or request changes on a run in review (POST /v1/queue/{run_id}/decision)')
    .argument('<run>', 'run id')
    .addOption(new Option('--decision <decision>', 'the decision').choices(['approve', 'reject', 'request_changes']).makeOptionMandatory())
    .option('--note <text>', 'kept in the decision ledger')
    .option('--patch <json>', 'the fields a typed hold asks for (JSON object)')
    .option('--gate <id>', 'the gate the run must be waiting on')
    .option('--json', 'print the answer as JSON')
    .action(
      act(
        async (
          client,
          runId: string,
          opts: { decision: 'approve' | 'reject' | 'request_changes'; note?: string; patch?: string; gate?: string; json?: boolean },
        ) => {
          const body = {
            decision: opts.decision,
            ...(opts.note ? { note: opts.note } : {}),
            ...(opts.patch ? { patch: parseJson('--patch', opts.patch) as Record<string, unknown> } : {}),
            ...(opts.gate ? { gateId: opts.gate } : {}),
          };
          const answer = ok(
            await client.POST('/v1/queue/{run_id}/decision', { params: { path: { run_id: runId } }, body }),
            `POST /v1/queue/${runId}/decision`,
          );
          if (opts.json) printJson(answer);
          else
            print(
              `run ${runId}: ${opts.decision} recorded${typeof (answer as { status?: unknown }).status === 'string' ? ` (run is ${(answer as { status: string }).status})` : ''}`,
            );
          return EXIT.ok;
        },
      ),
    );

  // ---- artifacts ----
  const artifacts = program.command('artifacts').description('read and download artifacts (API)');
  artifacts
    .command('show')
    .description('an artifact with its content and QA record (GET /v1/artifacts/{id})')
    .argument('<artifact>', 'artifact id')
    .option('--json', 'print the artifact as JSON')
    .action(
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
    .description('write artifact.json and the artifact’s files into a directory')
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
        if (opts.json) printJson({ metadataPath: result.metadataPath, files: result.files });
        else
          for (const f of [{ path: result.metadataPath, bytes: -1 }, ...result.files])
            print(`wrote ${f.path}${f.bytes >= 0 ? ` (${f.bytes} bytes)` : ''}`);
        return EXIT.ok;
      }),
    );
}
