export { createApp } from './app';
export { startApiServer, keepAliveMs, type ApiServer } from './server';
export type { AppServices, Principal } from './services';
export { RunEventHub } from './events/run-event-hub';
