export * from './types';
export { LocalStorage } from './local';
export { GcsStorage, type GcsStorageOptions } from './gcs';
export { storageFromConfig, type StorageConfigDefaults } from './config';
