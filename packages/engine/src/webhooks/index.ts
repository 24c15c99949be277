// The shared outbound webhook machinery (see docs/publications.md): signing, sealed secrets, one attempt,
// retry rules and the delivery workflow's activities, keyed by a target (kind + id).
export * from './types.js';
export * from './signing.js';
export * from './secret-box.js';
export * from './retry.js';
export * from './targets.js';
export * from './attempt.js';
export * from './activities.js';
export * from './start.js';
