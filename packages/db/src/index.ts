export * from './connect';
export * from './embedded';
export * from './migrate';
export type * from './schema';
export * from './runs';
export * from './run-steps';
export * from './last-step';
export * from './run-moves';
export * from './run-records';
export * from './workflows';
export * from './accounts';
export * from './login-throttles';
export * from './provider-capacity';
export * from './provider-jobs';
export * from './provider-batches';
export * from './workspaces';
export * from './projects';
export * from './queue';
export * from './budgets';
export * from './orders';
export * from './costs';
export type * from './schema-clients';
export type * from './schema-characters';
export * from './subjects';
export * from './characters';
export * from './character-use';
export * from './actor';
export * from './clients';
export * from './errors';
export * from './engine-commands';
export * from './run-handover';
export {
  TABLE_CHANGES_CHANNEL,
  STEP_OUTPUT_DELTA,
  DELTA_TEXT_MAX_CHARS,
  DELTA_PAYLOAD_MAX_BYTES,
  deltaTextBudget,
  type RunOutputDelta,
  notifyRunDelta,
  parseRunDelta,
} from './run-announce';
export type * from './schema-engine';
export type * from './schema-brands';
export * from './brands';
export * from './campaigns';
export type * from './schema-publications';
export * from './publications';
export * from './webhooks';
export type * from './schema-webhook-endpoints';
export * from './webhook-endpoints';
export * from './event-webhooks';
export type * from './schema-provider-calls';
export * from './provider-calls';
