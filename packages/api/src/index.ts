export { createApp } from './app.js';
export { startApiServer, type ApiServer } from './server.js';
export { type ConnectionLimits, connectionLimits, keepAliveMs } from './http/connection-limits.js';
export type { AppServices, Principal } from './services.js';
export { RunEventHub } from './events/run-event-hub.js';
