import { OpenAPIHono } from '@hono/zod-openapi';
import { countQueue, listQueue } from '@atelier/db';
import {
  ListQueueQuery,
  QueueBatchRequest,
  QueueBatchResponse,
  QueueCount,
  QueueDecisionEntry,
  QueueDecisionRequest,
  QueueFilters,
  QueueRunIdParam,
  QueueList,
} from '@atelier/contracts/queue';
import { Run } from '@atelier/contracts/runs';
import { listAccess } from '../access.js';
import { validationHook } from '../errors.js';
import { type BatchResult, decideEntry, decideOne } from '../queue/decide.js';
import { runResponse } from '../runs/visible-run.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { presentQueueItem } from '../presenters/queue-item.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('review queue');

/** The review queue (service spec "Review queue"): runs waiting on an approval gate, and the decisions on them. */
export const queueRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('GET /v1/queue', { query: ListQueueQuery }, { 200: QueueList }), async (c) => {
    const q = c.req.valid('query');
    const access = await listAccess(callerOf(c), q);
    const page = await listQueue(c.get('services').db, { ...q, workspaceId: access.workspaceId });
    return c.json(presentPage(page, presentQueueItem), 200);
  })
  .openapi(operation('GET /v1/queue/count', { query: QueueFilters }, { 200: QueueCount }), async (c) => {
    const q = c.req.valid('query');
    const access = await listAccess(callerOf(c), q);
    return c.json({ count: await countQueue(c.get('services').db, { ...q, workspaceId: access.workspaceId }) }, 200);
  })
  .openapi(
    operation('POST /v1/queue/{run_id}/decision', { params: QueueRunIdParam, body: QueueDecisionRequest }, { 200: Run }),
    async (c) => {
      const caller = callerOf(c);
      const runId = c.req.valid('param').run_id;
      await decideOne(caller, runId, c.req.valid('json'));
      return c.json(await runResponse(caller, runId), 200);
    },
  )
  .openapi(operation('POST /v1/queue/decisions', { body: QueueBatchRequest }, { 200: QueueBatchResponse }), async (c) => {
    const caller = callerOf(c);
    const results: BatchResult[] = [];
    // One at a time: two entries on the same run settle in the order sent (the second is refused).
    for (const [index, entry] of c.req.valid('json').decisions.entries()) results.push(await decideEntry(caller, entry, index));
    const succeeded = results.filter((r) => r.ok).length;
    return c.json({ results, succeeded, failed: results.length - succeeded }, 200);
  });

queueRoutes.openAPIRegistry.register('QueueDecisionEntry', QueueDecisionEntry);
