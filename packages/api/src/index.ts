export { createApp } from './app';
export { startApiServer, type ApiServer } from './server';
export { type ConnectionLimits, connectionLimits, keepAliveMs } from './http/connection-limits';
export type { AppServices, Principal } from './services';
export { RunEventHub } from './events/run-event-hub';
