export * from './client.js';
export * from './worker.js';
export type * from './run-types.js';
export { SEARCH_ATTRIBUTES } from './workflows/search-attributes.js';
export { createActivities, type EngineActivities } from './activities/index.js';
export { createProviders } from './providers/index.js';
