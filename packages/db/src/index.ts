export * from './connect';
export * from './embedded';
export * from './migrate';
export type * from './schema';
export * from './runs';
export * from './workflows';
export * from './accounts';
export * from './workspaces';
export * from './projects';
