export * from './types';
export { LocalStorage } from './local';
