import pino, { type Logger } from 'pino';

/** Structured JSON logs on stdout; every line carries the component and, where known, the request or run id. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'atelier' }, timestamp: pino.stdTimeFunctions.isoTime });
}
