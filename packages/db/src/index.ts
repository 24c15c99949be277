export * from './connect.js';
export * from './embedded.js';
export * from './migrate.js';
export type * from './schema.js';
export * from './runs.js';
export * from './artifacts.js';
export * from './run-steps.js';
export * from './last-step.js';
export { settleStartedStep } from './runs/started-step.js';
export * from './run-moves.js';
export * from './runs/artifact-write.js';
export * from './runs/view.js';
export * from './run-records.js';
export * from './workflows.js';
export * from './accounts.js';
export * from './login-throttles.js';
export * from './provider-capacity.js';
export * from './provider-jobs.js';
export * from './provider-batches.js';
export * from './workspaces.js';
export * from './projects.js';
export * from './queue.js';
export * from './budgets.js';
export * from './orders.js';
export * from './reconciler-candidates.js';
export * from './idempotency.js';
export * from './costs.js';
export type * from './schema-clients.js';
export type * from './schema-characters.js';
export * from './subjects.js';
export * from './characters.js';
export * from './character-use.js';
export * from './actor.js';
export * from './clients.js';
export * from './errors.js';
export * from './engine-commands.js';
export * from './run-handover.js';
export {
  TABLE_CHANGES_CHANNEL,
  ANNOUNCED_DATA_MAX_BYTES,
  STEP_OUTPUT_DELTA,
  DELTA_TEXT_MAX_CHARS,
  DELTA_PAYLOAD_MAX_BYTES,
  deltaTextBudget,
  type RunOutputDelta,
  notifyRunDeltas,
  parseRunDelta,
} from './run-announce.js';
export type * from './schema-engine.js';
export type * from './schema-brands.js';
export * from './brands.js';
export * from './campaigns.js';
export type * from './schema-publications.js';
export * from './publications.js';
export * from './webhooks.js';
export type * from './schema-webhook-endpoints.js';
export * from './webhook-endpoints.js';
export * from './signed-webhook-targets.js';
export * from './event-webhooks.js';
export type * from './schema-provider-calls.js';
export * from './provider-calls.js';
