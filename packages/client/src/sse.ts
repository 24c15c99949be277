import type { components } from './schema.js';

type Run = components['schemas']['Run'];

/**
 * One event of GET /v1/runs/{id}/events: `snapshot` carries the whole run; the others (run.status,
 * step.started, step.completed, step.failed, step.skipped, artifact.created) carry what changed, with
 * `runId` and `at`. `step.output.delta` (no `id`: live only, never replayed) carries a piece of a text
 * step's output as it is written: `stepIndex`, `stepId`, `attempt`, `answer`, `seq`, `text`.
 */
export type RunEvent =
  | { event: 'snapshot'; id?: string; data: Run }
  | { event: Exclude<string, 'snapshot'>; id?: string; data: RunEventData };

export interface RunEventData {
  runId?: string;
  at?: string;
  status?: string;
  stepIndex?: number;
  stepId?: string;
  name?: string;
  error?: string;
  artifactId?: string;
  [key: string]: unknown;
}

export type StreamEnd = { kind: 'ended' } | { kind: 'http_error'; status: number; body: unknown };

export interface StreamRunEventsOptions {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  authorization: string;
  runId: string;
  lastEventId?: string | undefined;
  signal?: AbortSignal;
  onEvent: (event: RunEvent) => void;
}

/**
 * Reads the run's event stream until the server ends it (after the terminal event) or a 204 says there
 * is nothing more. An error status resolves as `http_error` with the body; a broken connection rejects.
 */
export async function streamRunEvents(o: StreamRunEventsOptions): Promise<StreamEnd> {
  const headers: Record<string, string> = { authorization: o.authorization, accept: 'text/event-stream' };
  if (o.lastEventId !== undefined) headers['last-event-id'] = o.lastEventId;
  const res = await o.fetch(`${o.baseUrl}/v1/runs/${encodeURIComponent(o.runId)}/events`, {
    headers,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  if (res.status === 204) return { kind: 'ended' };
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { kind: 'http_error', status: res.status, body };
  }
  if (!res.body) throw new Error('event stream without a body');
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let id: string | undefined;
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) {
      const raw = data.join('\n');
      let parsed: unknown = raw;
      try {
        parsed = JSON.parse(raw);
      } catch {
        // keep the text
      }
      o.onEvent({ event, ...(id !== undefined ? { id } : {}), data: parsed } as RunEvent);
    }
    event = 'message';
    id = undefined;
    data = [];
  };
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer[newline] === '\r' && buffer[newline + 1] === '\n' ? 2 : 1));
      if (line === '') {
        dispatch();
        continue;
      }
      if (line.startsWith(':')) continue; // heartbeat comment
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  }
  return { kind: 'ended' };
}
