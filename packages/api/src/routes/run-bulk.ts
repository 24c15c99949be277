import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { IDEMPOTENCY_WINDOW_HOURS } from '@atelier/db';
import {
  BulkCancelDryRun,
  BulkCancelRequest,
  BulkCancelResult,
  BulkRerunDryRun,
  BulkRerunRequest,
  BulkRerunResult,
} from '@atelier/contracts/run-actions';
import { errorResponses, validationHook } from '../errors.js';
import { bulkCancel, bulkRerun, bulkRerunOnce } from '../runs/bulk.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { IdempotencyHeaders, REPLAYED_HEADER, ReplayedHeaders, idempotencyKeyOf } from '../http/idempotency.js';

/** Cancel or rerun every run a GET /v1/runs filter chooses, each through the single action's service. */
export const runBulkRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'post',
      path: '/v1/runs/bulk-cancel',
      operationId: 'bulkCancelRuns',
      summary: 'Cancel every run a filter chooses that has not ended, or with dryRun say which it would',
      description:
        'Each run is cancelled as POST /v1/runs/{run_id}/cancel cancels one. Runs already ended are skipped (reason terminal); a run the ' +
        'single cancel refuses is listed in failed with its status and detail. A filter matching more than limit runs is 422 ' +
        'bulk_limit_exceeded and nothing is done.',
      request: { body: jsonBody(BulkCancelRequest) },
      responses: {
        200: { description: 'What was done, or with dryRun what would be', ...json(z.union([BulkCancelResult, BulkCancelDryRun])) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => c.json(await bulkCancel(callerOf(c), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'post',
      path: '/v1/runs/bulk-rerun',
      operationId: 'bulkRerunRuns',
      summary: 'Rerun every run a filter chooses, or with dryRun price the reruns',
      description:
        'Each run is rerun as POST /v1/runs/{run_id}/rerun reruns one, with the same intake and providers overrides, one after another. ' +
        'A rerun refused is listed in failed with its status and detail; a 402 from a budget ends the bulk rerun and the runs after it ' +
        'are skipped (reason budget). A filter matching more than limit runs is 422 bulk_limit_exceeded and nothing is done. ' +
        'Without an Idempotency-Key, sending the request again reruns the runs again (a filter by tag then also matches the first ' +
        `request's reruns). With one (a dry run ignores it), a retry with the same key and body in the same workspace within ${IDEMPOTENCY_WINDOW_HOURS} ` +
        `hours creates nothing and answers the reruns the first request created, with ${REPLAYED_HEADER}: true (failed and skipped are not kept: ` +
        'empty, and matched counts the reruns); the same key with another body is 422 idempotency_key_reused. Keys are those of POST /v1/runs, ' +
        'in a space of their own: a bulk rerun never meets a run created under the same key.',
      request: { body: jsonBody(BulkRerunRequest), headers: IdempotencyHeaders },
      responses: {
        200: {
          description:
            'What was done, or with dryRun what would be; or, replayed, the reruns an earlier request with the same Idempotency-Key created',
          headers: ReplayedHeaders,
          ...json(z.union([BulkRerunResult, BulkRerunDryRun])),
        },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
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
