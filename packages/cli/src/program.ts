/**
 * The `atelier` command line, built with commander. User commands (runs, orders, queue, artifacts,
 * workflows) are clients of the HTTP API with an API key; operator commands (dev, api, worker, migrate,
 * operators, runs reset/finalize, workflows validate) need Temporal or PostgreSQL and are handed to
 * main.ts unchanged.
 *
 * Exit codes: 0 ok; 1 a watched run or order ended without success (failed, cancelled, rejected,
 * changes_requested, attention); 2 usage; 3 an API error (its body on stderr) or an unreachable gateway.
 */
import { readFile } from 'node:fs/promises';
import { Command, CommanderError, Option } from 'commander';
import { AtelierApiError, type AtelierClient, type Order, type Run, createAtelierClient } from '@atelier/client';
import { DEFAULT_URL, credentialsPath, resolveCredentials, saveCredentials } from './api/credentials';
import { OrderProgress } from './api/order-progress';
import { describeRunEvent, table } from './api/format';
import { RUN_STATUS_VALUES } from '@atelier/contracts/run-statuses';

export const EXIT = { ok: 0, unsuccessful: 1, usage: 2, api: 3 } as const;

/** Raised by command actions to end with a code (after printing what they had to say). */
class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A usage error found after commander parsed the arguments (a bad --intake JSON, say). */
class UsageError extends Error {}

type OperatorMain = (argv: string[]) => Promise<number>;

interface GlobalFlags {
  url?: string;
  apiKey?: string;
}

const print = (line: string) => process.stdout.write(`${line}\n`);
const printJson = (value: unknown) => print(JSON.stringify(value, null, 2));

function apiErrorExit(status: number, body: unknown, what: string): never {
  process.stderr.write(`error: ${what} answered ${status}\n${typeof body === 'string' ? body : JSON.stringify(body, null, 2)}\n`);
  throw new Exit(EXIT.api);
}

/** The data of an openapi-fetch result, or exit 3 with the error body on stderr. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  return apiErrorExit(result.response.status, result.error ?? null, what);
}

function parseJson(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} is not valid JSON: ${(err as Error).message}`);
  }
}

/** `--intake '{"topic":"x"}'` plus any `--set key=value` (values parsed as JSON when they parse). */
function intakeFrom(opts: { intake?: string; set?: string[] }): Record<string, unknown> {
  const intake = opts.intake ? parseJson('--intake', opts.intake) : {};
  if (typeof intake !== 'object' || intake === null || Array.isArray(intake)) throw new UsageError('--intake must be a JSON object');
  for (const pair of opts.set ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set expects key=value (got "${pair}")`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a plain string
    }
    (intake as Record<string, unknown>)[pair.slice(0, eq)] = value;
  }
  return intake as Record<string, unknown>;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];
const positiveInt = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number (got "${value}")`);
  return n;
};
const usd = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be an amount in USD (got "${value}")`);
  return n;
};

const RUN_SUCCESS = new Set(['completed', 'review']);
const money = (n: number | null | undefined) => (n === null || n === undefined ? '-' : `$${n.toFixed(4)}`);

function runSummary(run: Run): string[][] {
  return [
    ['id', run.id],
    ['workflow', `${run.templateId} ${run.workflowVersion}`],
    ['status', run.status],
    ['created', run.createdAt],
    ['finished', run.finishedAt ?? '-'],
    ['cost', `${money(run.totalCosts.actualUsd)} (estimated ${money(run.totalCosts.estimatedUsd)})`],
    ['artifact', run.artifactId ?? '-'],
    ...(run.error ? [['error', `${run.errorCode ? `${run.errorCode}: ` : ''}${run.error}`]] : []),
    ...(run.parentOrderId ? [['order', run.parentOrderId]] : []),
  ];
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
}

function orderSummary(order: Order): string {
  const c = order.counts;
  return table([
    ['id', order.id],
    ['workflow', `${order.workflowId} ${order.workflowVersion}`],
    ['status', order.status],
    [
      'children',
      `${order.targetCount} (planned ${c.planned}, running ${c.running}, succeeded ${c.succeeded}, failed ${c.failed}, cancelled ${c.cancelled}, skipped duplicates ${c.skipped})`,
    ],
    [
      'cost',
      `${money(order.actualCostUsd)} of estimated ${money(order.estimatedCostUsd)}${order.budgetLimitUsd === null ? '' : `, budget ${money(order.budgetLimitUsd)} (${order.budgetEnforcementMode})`}`,
    ],
    ['created', order.createdAt],
    ...(order.failureReason ? [['failure', order.failureReason]] : []),
    ...(order.acceptGapReason ? [['gap accepted', order.acceptGapReason]] : []),
  ]);
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
  else
    print(`run ${run.id} ended ${run.status}${run.error ? `: ${run.error}` : ''}${run.artifactId ? ` (artifact ${run.artifactId})` : ''}`);
  return RUN_SUCCESS.has(run.status) ? EXIT.ok : EXIT.unsuccessful;
}

/** Follows an order to the end: a live bar on a terminal, plain progress lines otherwise (or JSON lines with --json). */
async function watchOrder(client: AtelierClient, orderId: string, json: boolean, pollIntervalMs: number): Promise<number> {
  const progress = json ? undefined : new OrderProgress(process.stdout);
  let last = '';
  try {
    const order = await client.followOrder(orderId, {
      pollIntervalMs,
      onProgress: (o) => {
        if (progress) progress.update(o);
        else {
          const line = JSON.stringify({ status: o.status, counts: o.counts, actualCostUsd: o.actualCostUsd });
          if (line !== last) print(JSON.stringify({ event: 'order', data: o }));
          last = line;
        }
      },
    });
    progress?.finish(order);
    if (json) print(JSON.stringify({ event: 'end', data: order }));
    return order.status === 'completed' ? EXIT.ok : EXIT.unsuccessful;
  } finally {
    progress?.stop();
  }
}

export function buildProgram(argv: string[], operator: OperatorMain, setCode: (code: number) => void): Command {
  const program = new Command('atelier');
  program
    .description(
      'Atelier: durable workflow engine for AI content production.\nUser commands talk to the HTTP API with an API key (flags, ATELIER_URL/ATELIER_API_KEY, or `atelier login`);\noperator commands need Temporal and PostgreSQL (see docs/operations.md).',
    )
    .addOption(new Option('--url <url>', `gateway URL (env ATELIER_URL, else the saved login, else ${DEFAULT_URL})`))
    .addOption(new Option('--api-key <key>', 'API key (env ATELIER_API_KEY, else the saved login)'))
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText(
      'after',
      '\nExit codes: 0 ok; 1 a watched run/order ended failed, cancelled or rejected; 2 usage; 3 API error (body on stderr).',
    );

  const clientFor = async (cmd: Command): Promise<AtelierClient> => {
    const flags = cmd.optsWithGlobals<GlobalFlags>();
    const creds = await resolveCredentials(flags);
    if (!creds.apiKey)
      throw new UsageError(
        `no API key: pass --api-key, set ATELIER_API_KEY, or run \`atelier login --url ${creds.url} --api-key atl_...\``,
      );
    return createAtelierClient({ baseUrl: creds.url, apiKey: creds.apiKey });
  };
  /** Wraps a user command: it gets a client and its options; its return value is the exit code. */
  const act =
    <A extends unknown[]>(fn: (client: AtelierClient, ...args: A) => Promise<number | undefined>) =>
    async (...args: unknown[]) => {
      const cmd = args.at(-1) as Command;
      setCode((await fn(await clientFor(cmd), ...(args.slice(0, -1) as A))) ?? EXIT.ok);
    };
  /** Hands an operator command to main.ts as the original argv. */
  const operate = async () => setCode(await operator(argv));

  // ---- login ----
  program
    .command('login')
    .description(`save a gateway URL and API key to ${credentialsPath().replace(process.env.HOME ?? '\0', '~')} (mode 0600)`)
    .usage('--url <url> --api-key <key> [--no-verify]')
    .option('--no-verify', 'save without checking the key against the gateway')
    .addHelpText('after', '\nBoth --url (e.g. http://127.0.0.1:8080) and --api-key (an atl_ key from POST /v1/api-keys) are required.')
    .action(async (_opts: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalFlags & { verify: boolean }>();
      if (!opts.url || !opts.apiKey) throw new UsageError('login needs --url and --api-key');
      const url = opts.url.replace(/\/+$/, '');
      if (opts.verify) {
        const me = await createAtelierClient({ baseUrl: url, apiKey: opts.apiKey }).GET('/v1/users/me');
        const user = ok(me, 'GET /v1/users/me');
        print(`authenticated as ${user.email}`);
      }
      print(`saved to ${await saveCredentials({ url, apiKey: opts.apiKey })}`);
      setCode(EXIT.ok);
    });

  // ---- runs ----
  const runs = program
    .command('runs')
    .description('start, list, show, watch and cancel runs (API); finalize, reconcile and reset (operator)');
  runs
    .command('start')
    .description('start a run of a workflow (POST /v1/runs)')
    .argument('<workflow>', 'workflow (template) id, e.g. plan-research-report')
    .option('--intake <json>', 'the intake as a JSON object')
    .option('--set <key=value>', 'one intake field (repeatable; JSON values parsed)', collect)
    .option('--workspace <id>', 'workspace id (default: the key’s or your only workspace)')
    .option('--project <id>', 'project id')
    .option('--provider <role=model>', 'model for a role, this run only (repeatable)', collect)
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
            watch?: boolean;
            json?: boolean;
          },
        ) => {
          const providers = Object.fromEntries(
            (opts.provider ?? []).map((p) => {
              const eq = p.indexOf('=');
              if (eq <= 0) throw new UsageError(`--provider expects role=model (got "${p}")`);
              return [p.slice(0, eq), p.slice(eq + 1)];
            }),
          );
          const body = {
            templateId,
            intake: intakeFrom(opts),
            ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
            ...(opts.project ? { projectId: opts.project } : {}),
            ...(opts.provider ? { providers } : {}),
          };
          const run = ok(await client.POST('/v1/runs', { body }), 'POST /v1/runs');
          if (opts.json) printJson(run);
          else
            print(
              `run ${run.id} ${run.status} (${run.templateId} ${run.workflowVersion}, estimated ${money(run.totalCosts.estimatedUsd)})`,
            );
          return opts.watch ? watchRun(client, run.id, Boolean(opts.json)) : EXIT.ok;
        },
      ),
    );
  runs
    .command('list')
    .description('list runs, newest first (GET /v1/runs)')
    .addOption(new Option('--status <status>', 'only runs in this status').choices([...RUN_STATUS_VALUES]))
    .option('--workspace <id>', 'workspace id')
    .option('--project <id>', 'project id')
    .option('--order <id>', 'only the children of this order')
    .option('--limit <n>', 'at most this many (default 20)', positiveInt('--limit'), 20)
    .option('--offset <n>', 'skip this many', positiveInt('--offset'), 0)
    .option('--json', 'print the page as JSON')
    .action(
      act(
        async (
          client,
          opts: {
            status?: Run['status'];
            workspace?: string;
            project?: string;
            order?: string;
            limit: number;
            offset: number;
            json?: boolean;
          },
        ) => {
          const query = {
            limit: opts.limit,
            offset: opts.offset,
            ...(opts.status ? { status: opts.status } : {}),
            ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
            ...(opts.project ? { projectId: opts.project } : {}),
            ...(opts.order ? { parentOrderId: opts.order } : {}),
          };
          const page = ok(await client.GET('/v1/runs', { params: { query } }), 'GET /v1/runs');
          if (opts.json) printJson(page);
          else {
            print(
              table(
                page.items.map((r) => [r.id, r.templateId, r.status, r.createdAt, money(r.totalCosts.actualUsd), r.artifactId ?? '-']),
                ['run', 'workflow', 'status', 'created', 'cost', 'artifact'],
              ),
            );
            print(`${page.items.length} of ${page.total}`);
          }
          return EXIT.ok;
        },
      ),
    );
  runs
    .command('show')
    .description('a run with its steps and costs (GET /v1/runs/{id})')
    .argument('<run>', 'run id')
    .option('--json', 'print the run as JSON')
    .action(
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
  runs
    .command('cancel')
    .description('stop a run at its next step boundary (POST /v1/runs/{id}/cancel)')
    .argument('<run>', 'run id')
    .option('--json', 'print the run as JSON')
    .action(
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

  // ---- orders ----
  const orders = program.command('orders').description('plan, start, show, watch, retry and accept gaps of orders (API)');
  orders
    .command('plan')
    .description('plan an order: one child run per distinct variation, nothing runs yet (POST /v1/orders)')
    .argument('<workflow>', 'workflow id')
    .option('--items <json>', 'list variations: a JSON array of intake objects')
    .option('--matrix <json>', 'matrix variations: a JSON object of field -> array of values')
    .option('--csv <file>', 'csv variations: a CSV file with a header row of intake fields')
    .option('--variations <json>', 'a whole variationSpec ({"resolver":...,"params":...})')
    .option('--intake-base <json>', 'intake fields every child shares (JSON object)')
    .option('--target-count <n>', 'children wanted (defaults to the distinct variations)', positiveInt('--target-count'))
    .option('--budget-limit <usd>', 'spend limit of the order in USD', usd('--budget-limit'))
    .addOption(
      new Option('--budget-mode <mode>', 'what happens at the limit').choices([
        'hard_stop',
        'allow_overage',
        'allow_one_more',
        'notify_only',
      ]),
    )
    .addOption(new Option('--execution-mode <mode>', 'standard or batch').choices(['standard', 'batch']))
    .option('--workspace <id>', 'workspace id')
    .option('--project <id>', 'project id')
    .option('--start', 'start it right away')
    .option('--watch', 'start it and follow it to the end (implies --start)')
    .option('--json', 'print the order as JSON')
    .action(
      act(
        async (
          client,
          workflowId: string,
          opts: {
            items?: string;
            matrix?: string;
            csv?: string;
            variations?: string;
            intakeBase?: string;
            targetCount?: number;
            budgetLimit?: number;
            budgetMode?: 'hard_stop' | 'allow_overage' | 'allow_one_more' | 'notify_only';
            executionMode?: 'standard' | 'batch';
            workspace?: string;
            project?: string;
            start?: boolean;
            watch?: boolean;
            json?: boolean;
          },
        ) => {
          const given = [opts.items, opts.matrix, opts.csv, opts.variations].filter((v) => v !== undefined).length;
          if (given !== 1) throw new UsageError('give exactly one of --items, --matrix, --csv, --variations');
          const variationSpec = opts.items
            ? { resolver: 'list' as const, params: { items: parseJson('--items', opts.items) as Array<Record<string, unknown>> } }
            : opts.matrix
              ? { resolver: 'matrix' as const, params: { axes: parseJson('--matrix', opts.matrix) as Record<string, unknown[]> } }
              : opts.csv
                ? { resolver: 'csv' as const, params: { csv: await readFile(opts.csv, 'utf8') } }
                : (parseJson('--variations', opts.variations!) as { resolver: 'list'; params: { items: Array<Record<string, unknown>> } });
          const body = {
            workflowId,
            variationSpec,
            ...(opts.intakeBase ? { intakeBase: parseJson('--intake-base', opts.intakeBase) as Record<string, unknown> } : {}),
            ...(opts.targetCount !== undefined ? { targetCount: opts.targetCount } : {}),
            ...(opts.budgetLimit !== undefined ? { budgetLimitUsd: opts.budgetLimit } : {}),
            ...(opts.budgetMode ? { budgetEnforcementMode: opts.budgetMode } : {}),
            ...(opts.executionMode ? { executionMode: opts.executionMode } : {}),
            ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
            ...(opts.project ? { projectId: opts.project } : {}),
          };
          let order = ok(await client.POST('/v1/orders', { body }), 'POST /v1/orders');
          if (opts.start || opts.watch)
            order = ok(
              await client.POST('/v1/orders/{order_id}/start', { params: { path: { order_id: order.id } } }),
              `POST /v1/orders/${order.id}/start`,
            );
          if (opts.json) printJson(order);
          else print(orderSummary(order));
          return opts.watch ? watchOrder(client, order.id, Boolean(opts.json), 1000) : EXIT.ok;
        },
      ),
    );
  orders
    .command('start')
    .description('start a planned order (POST /v1/orders/{id}/start)')
    .argument('<order>', 'order id')
    .option('--watch', 'follow it to the end (exit code as `orders watch`)')
    .option('--json', 'print the order as JSON')
    .action(
      act(async (client, orderId: string, opts: { watch?: boolean; json?: boolean }) => {
        const order = ok(
          await client.POST('/v1/orders/{order_id}/start', { params: { path: { order_id: orderId } } }),
          `POST /v1/orders/${orderId}/start`,
        );
        if (opts.json) printJson(order);
        else print(`order ${order.id} ${order.status}: ${order.targetCount} children`);
        return opts.watch ? watchOrder(client, order.id, Boolean(opts.json), 1000) : EXIT.ok;
      }),
    );
  orders
    .command('show')
    .description('an order with its counts and spend (GET /v1/orders/{id})')
    .argument('<order>', 'order id')
    .option('--json', 'print the order as JSON')
    .action(
      act(async (client, orderId: string, opts: { json?: boolean }) => {
        const order = ok(
          await client.GET('/v1/orders/{order_id}', { params: { path: { order_id: orderId } } }),
          `GET /v1/orders/${orderId}`,
        );
        if (opts.json) printJson(order);
        else print(orderSummary(order));
        return EXIT.ok;
      }),
    );
  orders
    .command('watch')
    .description(
      'a live progress bar (plain lines when stdout is not a terminal) until the order settles; exit 0 completed, 1 attention/failed/cancelled',
    )
    .argument('<order>', 'order id')
    .option('--interval <ms>', 'polling interval', positiveInt('--interval'), 1000)
    .option('--json', 'one JSON line per change')
    .action(
      act(async (client, orderId: string, opts: { interval: number; json?: boolean }) =>
        watchOrder(client, orderId, Boolean(opts.json), opts.interval),
      ),
    );
  orders
    .command('retry-failed')
    .description('retry failed children (POST /v1/orders/{id}/retry-failed)')
    .argument('<order>', 'order id')
    .option('--run <id>', 'a child to retry (repeatable); all failed ones when omitted', collect)
    .option('--include-deterministic', 'also retry children that failed deterministically')
    .option('--json', 'print the order as JSON')
    .action(
      act(async (client, orderId: string, opts: { run?: string[]; includeDeterministic?: boolean; json?: boolean }) => {
        const body = {
          ...(opts.run ? { runIds: opts.run } : { all: true }),
          ...(opts.includeDeterministic ? { includeDeterministic: true } : {}),
        };
        const answer = ok(
          await client.POST('/v1/orders/{order_id}/retry-failed', { params: { path: { order_id: orderId } }, body }),
          `POST /v1/orders/${orderId}/retry-failed`,
        );
        if (opts.json) printJson(answer);
        else
          print(
            `retried ${answer.retried.length} children${answer.retried.length ? `: ${answer.retried.join(' ')}` : ''}\n${orderSummary(answer.order)}`,
          );
        return EXIT.ok;
      }),
    );
  orders
    .command('accept-gap')
    .description('settle an order in attention as it is, with a reason (POST /v1/orders/{id}/accept-gap)')
    .argument('<order>', 'order id')
    .requiredOption('--reason <text>', 'why the missing children are acceptable')
    .option('--json', 'print the order as JSON')
    .action(
      act(async (client, orderId: string, opts: { reason: string; json?: boolean }) => {
        const order = ok(
          await client.POST('/v1/orders/{order_id}/accept-gap', { params: { path: { order_id: orderId } }, body: { reason: opts.reason } }),
          `POST /v1/orders/${orderId}/accept-gap`,
        );
        if (opts.json) printJson(order);
        else print(orderSummary(order));
        return EXIT.ok;
      }),
    );

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
            params: { query: { limit: opts.limit, ...(opts.workspace ? { workspaceId: opts.workspace } : {}) } },
          }),
          'GET /v1/workflows',
        );
        if (opts.json) printJson(page);
        else
          print(
            table(
              page.items.map((w) => [
                w.id,
                w.name,
                w.liveVersion ?? '(draft)',
                w.builtin ? 'built-in' : 'workspace',
                w.status,
                w.visibility,
              ]),
              ['workflow', 'name', 'live version', 'owner', 'status', 'visibility'],
            ),
          );
        return EXIT.ok;
      }),
    );
  workflows
    .command('show')
    .description('a workflow with its versions and definition (GET /v1/workflows/{id})')
    .argument('<workflow>', 'workflow id')
    .option('--json', 'print the workflow as JSON')
    .action(
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

  // ---- operator commands (main.ts) ----
  program.command('dev').description('start Temporal (dev server), PostgreSQL (embedded), a worker and the API').action(operate);
  program.command('api').description('start the API gateway (needs DATABASE_URL and TEMPORAL_ADDRESS)').action(operate);
  program.command('worker').description('start a worker (needs DATABASE_URL and TEMPORAL_ADDRESS)').action(operate);
  program.command('migrate').description('apply database migrations (DATABASE_URL)').action(operate);
  const operators = program.command('operators').description('platform operators (the /v1/ops role), straight in PostgreSQL');
  operators.command('grant').description('make a registered user a platform operator').argument('<email>').action(operate);
  operators.command('revoke').description('take the platform operator role away').argument('<email>').action(operate);
  operators.command('list').description('list platform operators').action(operate);
  return program;
}

/** Runs the command line; resolves with the process exit code. */
export async function runCli(argv: string[], operator: OperatorMain): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(argv, operator, (c) => {
    code = c;
  });
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.ok;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof Exit) return err.code;
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      return EXIT.usage;
    }
    if (err instanceof AtelierApiError) {
      process.stderr.write(`error: ${err.method} ${err.path} answered ${err.status}\n${JSON.stringify(err.body, null, 2)}\n`);
      return EXIT.api;
    }
    const cause = (err as { cause?: { code?: string } }).cause;
    if (err instanceof TypeError && (cause?.code === 'ECONNREFUSED' || cause?.code === 'ENOTFOUND' || /fetch failed/.test(err.message))) {
      process.stderr.write(`error: cannot reach the gateway (${cause?.code ?? err.message}); set --url or ATELIER_URL\n`);
      return EXIT.api;
    }
    throw err;
  }
}
