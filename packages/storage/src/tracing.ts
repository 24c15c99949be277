import { type Attributes, type Context, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { ObjectStorage } from './types.js';

const TRACED = new Set<PropertyKey>(['put', 'get', 'delete']);

/**
 * The same storage, with `put`, `get` and `delete` recorded as client spans of the trace they run in
 * (a step's activity, a gateway request); outside any trace nothing is recorded. Only wrapped when tracing
 * is on (the engine's tracing setup decides), so a process without tracing calls the driver directly. Every
 * other member (`stream`, `root`, `url`, ...) is the driver's own, so `isStreamable` still tells.
 */
export function withStorageSpans<S extends ObjectStorage>(storage: S): S {
  const tracer = trace.getTracer('@atelier/storage');
  const traced =
    (method: 'put' | 'get' | 'delete') =>
    async (key: string, ...rest: unknown[]): Promise<unknown> => {
      const parent = context.active();
      if (!trace.getSpan(parent)?.isRecording())
        return (storage[method] as (...a: unknown[]) => Promise<unknown>).call(storage, key, ...rest);
      const attributes: Attributes = { 'atelier.storage.driver': storage.driver, 'atelier.storage.key': key };
      if (method === 'put') {
        const [bytes, contentType] = rest as [Buffer, string];
        attributes['atelier.storage.bytes'] = bytes.length;
        if (contentType) attributes['atelier.storage.content_type'] = contentType;
      }
      return tracer.startActiveSpan(`storage.${method}`, { kind: SpanKind.CLIENT, attributes }, parent as Context, async (span) => {
        try {
          const result = await (storage[method] as (...a: unknown[]) => Promise<unknown>).call(storage, key, ...rest);
          if (method === 'get' && Buffer.isBuffer(result)) span.setAttribute('atelier.storage.bytes', result.length);
          return result;
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
          throw err;
        } finally {
          span.end();
        }
      });
    };
  const wrapped = { put: traced('put'), get: traced('get'), delete: traced('delete') };
  return new Proxy(storage, {
    get(target, prop) {
      if (TRACED.has(prop)) return wrapped[prop as keyof typeof wrapped];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
