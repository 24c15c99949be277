import { Hono } from 'hono';
import { findProviderJob } from '@atelier/db';
import { signalProviderJobEnded } from '@atelier/engine/client';
import { bodySizeLimit } from '../middleware/input-guard.js';
import type { AppEnv } from '../services.js';
import { fail } from '../errors.js';

/**
 * Completion webhooks of providers that run jobs (Replicate, fal.ai...): each delivery is verified by that
 * provider's own signature scheme (its adapter's `webhooks.verify`), the job it names is found, and the run
 * waiting for it is signalled to look now. Nothing else is trusted from the body: the run checks the job
 * with the provider itself. The run polls as well, so a lost delivery costs time, never the result.
 */
export const providerWebhookRoutes = new Hono<AppEnv>();

providerWebhookRoutes.post('/hooks/providers/:provider', bodySizeLimit(), async (c) => {
  const services = c.get('services');
  const provider = c.req.param('provider');
  const webhooks = services.providerWebhooks?.(provider);
  if (!webhooks) throw fail.notFound('provider webhook', provider);
  const body = await c.req.text();
  const jobId = await webhooks.verify({ headers: c.req.raw.headers, body }).catch(() => undefined);
  if (!jobId) throw fail.badSignature('the delivery is not signed by the provider');
  const job = await findProviderJob(services.db, provider, jobId);
  // A genuine delivery about a job that is not ours, or whose run has ended, is acknowledged: nothing waits for it.
  if (!job) return c.body(null, 204);
  try {
    await signalProviderJobEnded(services.temporal, job.run_id, jobId);
  } catch (err) {
    c.get('logger').warn({ err, provider, runId: job.run_id }, 'a provider webhook could not reach its run; the run polls');
    throw fail.unavailable('the run could not be told now; deliver again');
  }
  return c.body(null, 204);
});
