// The shared outbound webhook machinery (see docs/publications.md): signing, sealed secrets, one attempt,
// retry rules and the delivery workflow's activities, keyed by a target (kind + id).
export * from './types';
export * from './signing';
export * from './secret-box';
export * from './retry';
export * from './targets';
export * from './attempt';
export * from './activities';
export * from './start';
