/** `atelier orders …`: plan, start, list, show, watch (with a progress bar), cancel, retry failed children and accept a gap. */
import { readFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { AtelierClient, Order, OrderStatus } from '@atelier/client';
import { ORDER_STATUSES } from '@atelier/contracts/order-statuses';
import { OrderProgress } from './order-progress.js';
import { money, table } from './format.js';
import {
  withPageFlags,
  oneRecordCommand,
  type CommandContext,
  EXIT,
  UsageError,
  collect,
  given,
  ok,
  parseJson,
  positiveInt,
  print,
  printAnswer,
  printJson,
  printPage,
  usd,
} from './cli-kit.js';

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

/** An order's children in one cell: succeeded of the target, then only the counts that are not zero. */
function childrenCell(order: Order): string {
  const c = order.counts;
  const others = [
    [c.failed, 'failed'],
    [c.running, 'running'],
    [c.planned, 'planned'],
    [c.cancelled, 'cancelled'],
  ] as const;
  return [`${c.succeeded}/${order.targetCount} succeeded`, ...others.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`)].join(', ');
}

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

export function registerOrderCommands(program: Command, { act }: CommandContext): void {
  // ---- orders ----
  const orders = program.command('orders').description('plan, start, list, show, watch, cancel, retry and accept gaps of orders (API)');
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
          const specs = [opts.items, opts.matrix, opts.csv, opts.variations].filter((v) => v !== undefined).length;
          if (specs !== 1) throw new UsageError('give exactly one of --items, --matrix, --csv, --variations');
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
            ...given(opts, {
              budgetMode: 'budgetEnforcementMode',
              executionMode: 'executionMode',
              workspace: 'workspaceId',
              project: 'projectId',
            }),
          };
          let order = ok(await client.POST('/v1/orders', { body }), 'POST /v1/orders');
          if (opts.start || opts.watch)
            order = ok(
              await client.POST('/v1/orders/{order_id}/start', { params: { path: { order_id: order.id } } }),
              `POST /v1/orders/${order.id}/start`,
            );
          printAnswer(order, opts.json, () => orderSummary(order));
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
        printAnswer(order, opts.json, () => `order ${order.id} ${order.status}: ${order.targetCount} children`);
        return opts.watch ? watchOrder(client, order.id, Boolean(opts.json), 1000) : EXIT.ok;
      }),
    );
  withPageFlags(
    orders
      .command('list')
      .description('list orders, newest first (GET /v1/orders)')
      .addOption(new Option('--status <status>', 'only orders in this status').choices([...ORDER_STATUSES]))
      .option('--workflow <id>', 'only orders of this workflow')
      .option('--workspace <id>', 'workspace id')
      .option('--project <id>', 'project id'),
    'cursor',
  ).action(
    act(
      async (
        client,
        opts: {
          status?: OrderStatus;
          workflow?: string;
          workspace?: string;
          project?: string;
          limit: number;
          cursor?: string;
          json?: boolean;
        },
      ) => {
        const query = {
          limit: opts.limit,
          ...given(opts, { status: 'status', workflow: 'workflowId', workspace: 'workspaceId', project: 'projectId', cursor: 'cursor' }),
        };
        const page = ok(await client.GET('/v1/orders', { params: { query } }), 'GET /v1/orders');
        printPage(page, opts.json, ['order', 'status', 'workflow', 'children', 'cost', 'created'], (o) => [
          o.id,
          o.status,
          o.workflowId,
          childrenCell(o),
          money(o.actualCostUsd),
          o.createdAt,
        ]);
        return EXIT.ok;
      },
    ),
  );
  oneRecordCommand(orders, 'show', 'an order with its counts and spend (GET /v1/orders/{id})', 'order').action(
    act(async (client, orderId: string, opts: { json?: boolean }) => {
      const order = ok(await client.GET('/v1/orders/{order_id}', { params: { path: { order_id: orderId } } }), `GET /v1/orders/${orderId}`);
      printAnswer(order, opts.json, () => orderSummary(order));
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
  oneRecordCommand(
    orders,
    'cancel',
    'cancel an order: no new children start, those in flight stop at their next step boundary (POST /v1/orders/{id}/cancel)',
    'order',
  ).action(
    act(async (client, orderId: string, opts: { json?: boolean }) => {
      const order = ok(
        await client.POST('/v1/orders/{order_id}/cancel', { params: { path: { order_id: orderId } } }),
        `POST /v1/orders/${orderId}/cancel`,
      );
      if (opts.json) printJson(order);
      else
        print(
          `order ${order.id} is ${order.status}${order.status === 'cancelled' ? '' : '; no new children start, and those running stop at their next step boundary'}`,
        );
      return EXIT.ok;
    }),
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
        printAnswer(
          answer,
          opts.json,
          () =>
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
        printAnswer(order, opts.json, () => orderSummary(order));
        return EXIT.ok;
      }),
    );
}
