import type { Logger } from 'pino';
import type { Db } from '@atelier/db';
import type { ModelRegistry } from '@atelier/domain';
import type { EgressPolicy } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import type { WorkerMetrics } from '../metrics.js';
import type { ProviderJobSettings } from '../providers/durable-jobs.js';
import type { ProviderSet } from '../providers/index.js';
import type { ExpressionEvaluator } from '../steps/code-expression.js';
import type { Tool } from '../steps/tools.js';

export interface ActivityDeps {
  db: Db;
  models: ModelRegistry;
  providers: ProviderSet;
  storage: ObjectStorage;
  logger: Logger;
  /** What tools may fetch from caller-named URLs; production's deny-private policy when absent. */
  egress?: EgressPolicy;
  tools?: Record<string, Tool>;
  /** Where code steps' expressions run; the worker closes it when it stops. */
  expressions: ExpressionEvaluator;
  schemaAttempts?: number;
  /** How image and video steps wait for provider jobs (worker.ts, ProviderJobSettings). */
  providerJobs?: ProviderJobSettings;
  /** The worker's Prometheus metrics; absent, nothing is counted. */
  metrics?: WorkerMetrics;
}
