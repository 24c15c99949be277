import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Logger } from 'pino';
import {
  type Db,
  type LeasedCommand,
  type RunToStart,
  cancelPlannedChildren,
  completeEngineCommand,
  completeRunStart,
  completeRunStarts,
  type DeliveredRunStart,
  getOrder,
  getRunRow,
  leaseDueCommands,
  releaseEngineCommands,
  moveRunStatus,
  retryEngineCommand,
  setOrderStatus,
  getWebhookMessage,
} from '@atelier/db';
import { isDecidedRunStatus, isTerminalRunStatus } from '@atelier/domain';
import { orderConcurrencyOf, temporalPriorityOf } from '@atelier/domain/priority';
import { signalOrderCancel, signalReviewDecided, signalRunCancel, startOrWakeOrderWorkflow, startRunWorkflow } from './client.js';
import { runWorkflowInputOf } from './run-input.js';
import { traceEngineCommand, withRunContext } from './tracing.js';
import { type WebhookRetrySettings, startWebhookDelivery, webhookRetrySettings } from './webhooks/index.js';

export interface DispatcherOptions {
  db: Db;
  temporal: Client;
  taskQueue: string;
  /** Children of an order in flight at once, unless the order names its own (orders.max_concurrency). */
  orderConcurrency: number;
  logger: Logger;
  /** How often due commands are looked for when nothing wakes the dispatcher (1 s). */
  pollMs?: number;
  /** Backoff of webhook deliveries started from here; ATELIER_WEBHOOK_RETRY_* over the defaults when absent. */
  webhookRetry?: Partial<WebhookRetrySettings>;
}

/** Due commands leased from the table per pass. */
const BATCH = 32;
/**
 * Hand-overs delivered per pass, all at once. A burst's runs reach Temporal no faster than passes go by (a
 * pass waits for its slowest start and the statement completing them), so a burst is taken in large
 * passes: 400 runs posted at once by 64 clients started about 0.3 s sooner at the median, 0.6 s at the last,
 * than in passes of 32 (bench/slow-calls.ts; docs/performance-log.md, 2026-11-28). Bounded, so that a
 * gateway has at most this many starts (and a lease's batch) waiting on Temporal at once.
 */
const HANDOVER_BATCH = 256;
const TERMINAL_ORDER = ['completed', 'failed', 'cancelled'];

/**
 * Hands the engine the commands the API recorded (engine_commands): starts run and order workflows and
 * delivers cancels. The API answers as soon as its transaction commits; this is where the work reaches
 * Temporal, retried with backoff for as long as Temporal is away. Every delivery is idempotent by
 * workflow id, so a command delivered twice (a dispatcher that died after delivering, two gateways)
 * changes nothing the second time. Commands for one run or order are delivered in the order recorded.
 */
export class EngineDispatcher {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  /** Commands this process recorded as leased to itself, waiting for the loop. */
  private handed: LeasedCommand[] = [];
  private leasedAt = 0;

  constructor(private readonly opts: DispatcherOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Something was just recorded: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * A `start_run` this process recorded as leased to itself (insertRunLeased), with its run: delivered
   * at the loop's next turn without a lease's statement, in a batch with the others handed over meanwhile.
   */
  handOver(command: LeasedCommand): void {
    this.handed.push(command);
    if (this.stopped) void this.releaseHanded();
    else this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    await this.releaseHanded();
  }

  /** What was handed over and not delivered is due again now, for any dispatcher, not when its lease runs out. */
  private async releaseHanded(): Promise<void> {
    const left = this.handed.splice(0).map((command) => command.id);
    await releaseEngineCommands(this.opts.db, left).catch((err) =>
      this.opts.logger.warn({ err, commands: left.length }, 'handed-over commands not released; their leases will run out'),
    );
  }

  /**
   * One pass: up to HANDOVER_BATCH of the commands handed over and, when `lease`, up to BATCH of the due ones
   * leased from the table (however many were handed over, so the table is never starved); returns how many
   * were taken.
   */
  async dispatchDue(lease = true): Promise<number> {
    const handed = this.handed.splice(0, HANDOVER_BATCH);
    const commands = [...handed, ...(lease ? await this.leaseDue() : [])];
    const byTarget = new Map<string, LeasedCommand[]>();
    for (const command of commands) byTarget.set(command.target_id, [...(byTarget.get(command.target_id) ?? []), command]);
    const started: DeliveredRunStart[] = [];
    await Promise.all(
      [...byTarget.values()].map(async (sequence) => {
        // The run read with the lease serves only the target's first command: later ones may follow a change.
        // A start that is its target's only command is completed with the batch's other such starts.
        const alone = sequence.length === 1 ? started : undefined;
        for (const [i, command] of sequence.entries()) await this.dispatch(command, i === 0 ? command.run : undefined, alone);
      }),
    );
    await this.completeStarts(started);
    return commands.length;
  }

  /** Due commands from the table; none when it cannot be read (the hand-overs taken go ahead regardless). */
  private async leaseDue(): Promise<LeasedCommand[]> {
    this.leasedAt = Date.now();
    try {
      return await leaseDueCommands(this.opts.db, BATCH);
    } catch (err) {
      this.opts.logger.warn({ err }, 'engine commands could not be read; retrying');
      return [];
    }
  }

  /**
   * The batch's delivered starts, completed in one statement. Should that fail, each start is retried
   * later as a failed delivery would be: its second delivery finds the workflow started and completes it.
   */
  private async completeStarts(started: DeliveredRunStart[]): Promise<void> {
    try {
      await completeRunStarts(this.opts.db, started);
    } catch (err) {
      this.opts.logger.warn({ err, commands: started.length }, 'delivered starts not recorded; will retry');
      const message = err instanceof Error ? err.message : String(err);
      await Promise.all(started.map((s) => retryEngineCommand(this.opts.db, s.commandId, message, 1).catch(() => undefined)));
    }
  }

  private async run(): Promise<void> {
    const pollMs = this.opts.pollMs ?? 1_000;
    while (!this.stopped) {
      // The table is read when something was recorded for any dispatcher and at every poll, however busy
      // hand-overs keep the loop: retries and other gateways' commands come due there.
      const lease = this.woken || Date.now() - this.leasedAt >= pollMs;
      this.woken = false;
      let taken = 0;
      try {
        taken = await this.dispatchDue(lease);
      } catch (err) {
        this.opts.logger.warn({ err }, 'engine commands not dispatched; retrying');
      }
      if (taken < BATCH && !this.woken && this.handed.length === 0 && !this.stopped) {
        await this.sleep(Math.max(0, pollMs - (Date.now() - this.leasedAt)));
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private async dispatch(command: LeasedCommand, leasedRun?: RunToStart, started?: DeliveredRunStart[]): Promise<void> {
    const { db, logger } = this.opts;
    try {
      // In the trace of the request that recorded the command (its traceparent), when tracing is on.
      const settled = await traceEngineCommand(command, () => this.deliver(command, leasedRun, started));
      if (!settled) await completeEngineCommand(db, command.id);
    } catch (err) {
      const delay = Math.min(60, 2 ** Math.min(command.attempts, 6));
      logger.warn(
        { err, command: command.kind, target: command.target_id, attempt: command.attempts, retryInSeconds: delay },
        'engine command not delivered; will retry',
      );
      await retryEngineCommand(db, command.id, err instanceof Error ? err.message : String(err), delay).catch(() => undefined);
    }
  }

  /**
   * Delivers a command; true when its completion was already written with what the delivery wrote, or is
   * left to the batch (`started`).
   */
  private async deliver(command: LeasedCommand, leasedRun?: RunToStart, started?: DeliveredRunStart[]): Promise<boolean> {
    const { db, temporal, taskQueue } = this.opts;
    const id = command.target_id;
    switch (command.kind) {
      case 'start_run': {
        const run = leasedRun ?? (await getRunRow(db, id));
        // Cancelled (or otherwise moved on) before it could be handed over: nothing to start.
        if (run?.status !== 'pending') return false;
        try {
          const start = () =>
            startRunWorkflow(temporal, runWorkflowInputOf(run), {
              taskQueue,
              templateId: run.template_id,
              orderId: run.parent_order_id,
              // An order's child started here runs at an order child's level, never ahead of single runs.
              priority: temporalPriorityOf(run.parent_order_id ? 'order' : 'run', run.workspace_id, run.priority),
            });
          await withRunContext(
            { runId: id, workspaceId: run.workspace_id, templateId: run.template_id, orderId: run.parent_order_id },
            start,
          );
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
        // The move to queued and the command's completion commit together.
        if (started) started.push({ commandId: command.id, runId: id });
        else await completeRunStart(db, command.id, id);
        return true;
      }
      case 'cancel_run': {
        // Signalled whatever the read model says: an execution started just before the cancel was
        // recorded must hear it too. With no execution, the run is settled here.
        if ((await signalRunCancel(temporal, id)) === 'signalled') return false;
        const run = await getRunRow(db, id);
        if (run && !isTerminalRunStatus(run.status)) await moveRunStatus(db, id, 'cancelled');
        return false;
      }
      case 'start_order': {
        const order = await getOrder(db, id);
        if (order?.status !== 'running') return false;
        await startOrWakeOrderWorkflow(temporal, id, {
          taskQueue,
          workspaceId: order.workspace_id,
          templateId: order.workflow_id,
          concurrency: orderConcurrencyOf(order, this.opts.orderConcurrency),
          priority: temporalPriorityOf('order', order.workspace_id, order.priority),
          status: order.status,
        });
        return false;
      }
      case 'cancel_order': {
        const order = await getOrder(db, id);
        if (!order || TERMINAL_ORDER.includes(order.status)) return false;
        if ((await signalOrderCancel(temporal, id)) === 'signalled') return false;
        await db.transaction().execute(async (tx) => {
          await cancelPlannedChildren(tx, id);
          await setOrderStatus(tx, id, 'cancelled');
        });
        return false;
      }
      case 'decide_run': {
        // The decided status is read from the run, not carried in the command: a decision is final, so they agree.
        const run = await getRunRow(db, id);
        if (run && isDecidedRunStatus(run.status)) await signalReviewDecided(temporal, id, run.status);
        return false;
      }
      case 'deliver_webhook': {
        const message = await getWebhookMessage(db, id);
        if (message?.status !== 'pending') return false;
        await startWebhookDelivery(temporal, id, { taskQueue, retry: webhookRetrySettings(process.env, this.opts.webhookRetry) });
        return false;
      }
    }
  }
}
