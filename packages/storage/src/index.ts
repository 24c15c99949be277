export * from './types.js';
export { LocalStorage } from './local.js';
export { GcsStorage, type GcsStorageOptions } from './gcs.js';
export { storageFromConfig, type StorageConfigDefaults } from './config.js';
