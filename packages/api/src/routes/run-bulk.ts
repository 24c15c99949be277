import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  BulkCancelDryRun,
  BulkCancelRequest,
  BulkCancelResult,
  BulkRerunDryRun,
  BulkRerunRequest,
  BulkRerunResult,
} from '@atelier/contracts/run-actions';
import { validationHook } from '../errors.js';
import { bulkCancel, bulkRerun, bulkRerunOnce } from '../runs/bulk.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { IdempotencyHeaders, REPLAYED_HEADER, idempotencyKeyOf, replayable } from '../http/idempotency.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('runs');

/** Cancel or rerun every run a GET /v1/runs filter chooses, each through the single action's service. */
export const runBulkRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation('POST /v1/runs/bulk-cancel', { body: BulkCancelRequest }, { 200: z.union([BulkCancelResult, BulkCancelDryRun]) }),
    async (c) => c.json(await bulkCancel(callerOf(c), c.req.valid('json')), 200),
  )
  .openapi(
    operation(
      'POST /v1/runs/bulk-rerun',
      { body: BulkRerunRequest, headers: IdempotencyHeaders },
      { 200: replayable(z.union([BulkRerunResult, BulkRerunDryRun])) },
    ),
    async (c) => {
      const caller = callerOf(c);
      const request = c.req.valid('json');
      const key = request.dryRun ? undefined : idempotencyKeyOf(c, request);
      if (!key) return c.json(await bulkRerun(caller, request), 200);
      const { answer, replayed } = await bulkRerunOnce(caller, request, key);
      if (replayed) c.header(REPLAYED_HEADER, 'true');
      return c.json(answer, 200);
    },
  );
