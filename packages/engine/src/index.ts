export * from './client';
export * from './worker';
export type * from './run-types';
export { SEARCH_ATTRIBUTES } from './workflows/search-attributes';
export { createActivities, type EngineActivities } from './activities/index';
export { createProviders } from './providers/index';
