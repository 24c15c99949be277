import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { countQueue, listQueue } from '@atelier/db';
import { listOf } from '@atelier/contracts/common';
import {
  ListQueueQuery,
  QueueBatchRequest,
  QueueBatchResponse,
  QueueCount,
  QueueDecisionEntry,
  QueueDecisionRequest,
  QueueFilters,
  QueueItem,
  QueueRunIdParam,
} from '@atelier/contracts/queue';
import { Run } from '@atelier/contracts/runs';
import { listAccess } from '../access.js';
import { errorResponses, validationHook } from '../errors.js';
import { type BatchResult, decideEntry, decideOne } from '../queue/decide.js';
import { runResponse } from '../runs/visible-run.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentQueueItem } from '../presenters/queue-item.js';
import { presentPage } from '../presenters/page.js';

/** The review queue (service spec "Review queue"): runs waiting on an approval gate, and the decisions on them. */
export const queueRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('review queue'),
      method: 'get',
      path: '/v1/queue',
      summary: 'Runs waiting for review, oldest first (the run that reached review earliest leads)',
      description: 'A live view over runs with status review that are not archived. Any member of the workspace may read it.',
      request: { query: ListQueueQuery },
      responses: { 200: { description: 'Queue items', ...json(listOf(QueueItem, 'QueueList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const access = await listAccess(callerOf(c), q);
      const page = await listQueue(c.get('services').db, { ...q, workspaceId: access.workspaceId });
      return c.json(presentPage(page, presentQueueItem), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('review queue'),
      method: 'get',
      path: '/v1/queue/count',
      summary: 'How many runs wait for review, with the same filters as the queue',
      description: `The number of runs waiting for review, with the same filters as GET /v1/queue (workspaceId, projectId, templateId). ${WHO_MAY_CALL.member}`,
      request: { query: QueueFilters },
      responses: { 200: { description: 'The number of queue items', ...json(QueueCount) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const access = await listAccess(callerOf(c), q);
      return c.json({ count: await countQueue(c.get('services').db, { ...q, workspaceId: access.workspaceId }) }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('review queue'),
      method: 'post',
      path: '/v1/queue/{run_id}/decision',
      operationId: 'decideRun',
      summary: 'Approve, reject or request changes on a run in review; recorded in its decision ledger',
      description:
        'approve: run completed, artifact approved (refused with 409 approval_blocked while a QA check is at fail or pending; ' +
        'a typed hold needs a patch with exactly its fields, else 422 hold_patch_invalid or hold_value_invalid; the patch lands in the artifact content under hold). ' +
        'reject: run rejected, artifact rejected. request_changes: run changes_requested, artifact back to draft. ' +
        'A run not in review is 409 invalid_transition; a gateId other than the one the run waits on is 409 gate_mismatch.',
      request: { params: QueueRunIdParam, body: jsonBody(QueueDecisionRequest) },
      responses: {
        200: { description: 'The run after the decision, with its ledger', ...json(Run) },
        ...errorResponses(401, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const runId = c.req.valid('param').run_id;
      await decideOne(caller, runId, c.req.valid('json'));
      return c.json(await runResponse(caller, runId), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('review queue'),
      method: 'post',
      path: '/v1/queue/decisions',
      operationId: 'decideRuns',
      summary: 'Several decisions at once; each entry is validated and applied on its own, in order',
      description:
        'Always 200 once the body is a list of 1 to 100 entries: each result is { runId, ok: true, status } or ' +
        '{ runId, ok: false, statusCode, detail } with the status and detail the single-decision endpoint would have answered.',
      request: { body: jsonBody(QueueBatchRequest) },
      responses: {
        200: { description: 'One result per entry, in the order sent', ...json(QueueBatchResponse) },
        ...errorResponses(401, 422),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const results: BatchResult[] = [];
      // One at a time: two entries on the same run settle in the order sent (the second is refused).
      for (const [index, entry] of c.req.valid('json').decisions.entries()) results.push(await decideEntry(caller, entry, index));
      const succeeded = results.filter((r) => r.ok).length;
      return c.json({ results, succeeded, failed: results.length - succeeded }, 200);
    },
  );

queueRoutes.openAPIRegistry.register('QueueDecisionEntry', QueueDecisionEntry);
