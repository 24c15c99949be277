import type { z } from '@hono/zod-openapi';
import {
  BULK_LIMITS,
  type BulkCancelDryRun,
  type BulkCancelRequest,
  type BulkCancelResult,
  type BulkFailed,
  type BulkRerunDryRun,
  type BulkRerunRequest,
  type BulkRerunResult,
  type BulkSkipped,
  type RunFilter,
} from '@atelier/contracts/run-actions';
import { type Executor, type IdempotencyKey, type RunRow, idempotentCreations, listRunRows } from '@atelier/db';
import { type RunStatus, isTerminalRunStatus } from '@atelier/domain';
import { listAccess } from '../access.js';
import { ApiError, fail } from '../errors.js';
import { createdOnce } from '../http/idempotency.js';
import type { Caller } from '../caller.js';
import { cancelRun } from './cancel.js';
import { runFilterOf } from './filter.js';
import { dryRunRerun, rerunRun } from './rerun.js';

type Skipped = z.infer<typeof BulkSkipped>;
type Failed = z.infer<typeof BulkFailed>;

/**
 * The runs a bulk action acts on: GET /v1/runs's filter and SQL (listRunRows), in the workspace the list would
 * read, newest first. More than `limit` is refused whole (422 bulk_limit_exceeded) rather than acting on the
 * first `limit` of them: a caller who asked for "every run tagged x" would otherwise get some of them with no
 * way to tell which were left.
 */
async function matchingRuns(caller: Caller, filter: z.infer<typeof RunFilter>, limit: number): Promise<RunRow[]> {
  const access = await listAccess(caller, filter);
  const { items, total } = await listRunRows(caller.services.db, { ...runFilterOf(filter, access.workspaceId), offset: 0, limit });
  if (total > limit) {
    throw fail.code('bulk_limit_exceeded', {
      message: `the filter matches ${total} runs, more than the limit of ${limit}; narrow the filter or raise limit (at most ${BULK_LIMITS.max})`,
      matched: total,
      limit,
    });
  }
  return items;
}

/**
 * The single action's refusal of one run, as that run's entry in `failed`; anything but a refusal (the
 * database gone, a bug) is not the run's doing and ends the whole request as it would the single action.
 */
function refusalOf(runId: string, err: unknown): Failed {
  if (err instanceof ApiError) return { runId, status: err.status, detail: err.detail };
  throw err;
}

/**
 * POST /v1/runs/bulk-cancel: cancelRun, the single cancel, for each matching run not yet ended. A run that has
 * ended is skipped (`terminal`) rather than refused: "cancel what still runs" is what a bulk cancel means.
 * One that ends between the match and its cancel is refused by cancelRun (409) and reported in `failed`.
 */
export async function bulkCancel(
  caller: Caller,
  request: z.infer<typeof BulkCancelRequest>,
): Promise<z.infer<typeof BulkCancelDryRun> | z.infer<typeof BulkCancelResult>> {
  const runs = await matchingRuns(caller, request.filter, request.limit);
  const skipped: Skipped[] = runs
    .filter((r) => isTerminalRunStatus(r.status))
    .map((r) => ({ runId: r.id, reason: 'terminal', status: r.status as RunStatus }));
  const targets = runs.filter((r) => !isTerminalRunStatus(r.status)).map((r) => r.id);
  if (request.dryRun) return { dryRun: true, matched: runs.length, wouldAct: targets, skipped };
  const acted: string[] = [];
  const failed: Failed[] = [];
  for (const runId of targets) {
    try {
      await cancelRun(caller, runId);
      acted.push(runId);
    } catch (err) {
      failed.push(refusalOf(runId, err));
    }
  }
  caller.logger.info({ matched: runs.length, acted: acted.length, failed: failed.length }, 'bulk cancel');
  return { dryRun: false, matched: runs.length, acted, skipped, failed };
}

/** Dollars summed from many estimates, without the float dust of the additions. */
const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

/**
 * POST /v1/runs/bulk-rerun: rerunRun, the single rerun, for each matching run, with the same overrides each.
 * The reruns are made one after another, so each is judged by budgets with the ones before it counted; the
 * first a budget refuses (402) ends the bulk rerun, and the runs after it are skipped (`budget`) rather than
 * tried, since they would only be refused too or, under a per-run cap, spend past what the caller meant.
 */
export async function bulkRerun(
  caller: Caller,
  request: z.infer<typeof BulkRerunRequest>,
  key?: IdempotencyKey,
): Promise<z.infer<typeof BulkRerunDryRun> | z.infer<typeof BulkRerunResult>> {
  const runs = await matchingRuns(caller, request.filter, request.limit);
  const overrides = {
    ...(request.intake ? { intake: request.intake } : {}),
    ...(request.providers ? { providers: request.providers } : {}),
  };
  if (request.dryRun) {
    const wouldAct: string[] = [];
    const wouldFail: Failed[] = [];
    let estimateUsd = 0;
    for (const run of runs) {
      try {
        const { estimate } = await dryRunRerun(caller, run.id, overrides);
        wouldAct.push(run.id);
        estimateUsd += estimate.typical;
      } catch (err) {
        wouldFail.push(refusalOf(run.id, err));
      }
    }
    return { dryRun: true, matched: runs.length, wouldAct, skipped: [], wouldFail, estimateUsd: roundUsd(estimateUsd) };
  }
  const acted: string[] = [];
  const reruns: Array<{ runId: string; rerunOf: string }> = [];
  const skipped: Skipped[] = [];
  const failed: Failed[] = [];
  for (const [index, run] of runs.entries()) {
    try {
      const { row } = await rerunRun(caller, run.id, overrides, key && rerunKey(key, reruns.length));
      acted.push(run.id);
      reruns.push({ runId: row.id, rerunOf: run.id });
    } catch (err) {
      // A racing request with another body under the key took this rerun's key: the whole request's refusal, not this run's.
      if (err instanceof ApiError && (err.detail as { code?: unknown } | null)?.code === 'idempotency_key_reused') throw err;
      const refusal = refusalOf(run.id, err);
      failed.push(refusal);
      if (refusal.status === 402) {
        skipped.push(...runs.slice(index + 1).map((r): Skipped => ({ runId: r.id, reason: 'budget' })));
        break;
      }
    }
  }
  caller.logger.info({ matched: runs.length, acted: acted.length, failed: failed.length, skipped: skipped.length }, 'bulk rerun');
  return { dryRun: false, matched: runs.length, acted, reruns, skipped, failed };
}

type BulkRerunAnswer = z.infer<typeof BulkRerunResult>;

/**
 * The key the n-th rerun of a bulk rerun is recorded under, in the runs' key space: the request's key, a space
 * and n. A client's key never holds a space (IdempotencyHeaders), so no POST /v1/runs or single rerun meets it;
 * the hash is the bulk request's, so every rerun of one request carries the same one.
 */
const rerunKey = (key: IdempotencyKey, n: number): IdempotencyKey => ({ key: `${key.key} ${n}`, hash: key.hash });

/**
 * A bulk rerun's creations under a key, for createdOnce: its reruns are runs recorded under rerunKey 0, 1, …,
 * so what an earlier request created is read back from them, in order, with no table of answers. Only
 * creations are kept: a replay's `failed` and `skipped` are empty and `matched` counts the reruns.
 */
function bulkRerunCreations(limit: number) {
  const runs = idempotentCreations('runs');
  return {
    async find(db: Executor, workspaceId: string, key: string) {
      const rows: RunRow[] = [];
      let hash = '';
      // Rerun n+1 is only created after rerun n, so the first key missing ends them.
      for (let n = 0; n < limit; n++) {
        const earlier = await runs.find(db, workspaceId, `${key} ${n}`);
        if (!earlier) break;
        rows.push(earlier.row);
        hash = earlier.hash;
      }
      if (rows.length === 0) return undefined;
      const answer: BulkRerunAnswer = {
        dryRun: false,
        matched: rows.length,
        acted: rows.map((r) => r.rerun_of ?? ''),
        reruns: rows.map((r) => ({ runId: r.id, rerunOf: r.rerun_of ?? '' })),
        skipped: [],
        failed: [],
      };
      return { row: answer, hash };
    },
    // Each rerun is created through createRunOnce, which meets a taken or expired key of its own; these two
    // only answer for the first rerun's key, should a unique violation ever reach createdOnce from here.
    releaseExpired: (db: Executor, workspaceId: string, key: string) => runs.releaseExpired(db, workspaceId, `${key} 0`),
    isTaken: runs.isTaken,
  };
}

/**
 * POST /v1/runs/bulk-rerun with an `Idempotency-Key` (not a dry run): as POST /v1/runs with one, through the
 * same createdOnce. A retry with the same body within the window creates nothing and answers the reruns the
 * first request created, rather than matching the filter again: the first request's reruns carry their
 * originals' tags, so a filter by tag would now choose them too. Another body under the key is 422.
 */
export async function bulkRerunOnce(
  caller: Caller,
  request: z.infer<typeof BulkRerunRequest>,
  key: IdempotencyKey,
): Promise<{ answer: BulkRerunAnswer; replayed: boolean }> {
  const access = await listAccess(caller, request.filter);
  const { row, replayed } = await createdOnce(bulkRerunCreations(request.limit), caller.services.db, access.workspaceId, key, async () => {
    const answer = await bulkRerun(caller, { ...request, dryRun: false }, key);
    // bulkRerun answers a dry run only when asked for one, which it was not.
    return answer as BulkRerunAnswer;
  });
  return { answer: row, replayed };
}
