import { Worker } from 'node:worker_threads';

/**
 * An OpenAI-compatible loopback provider that admits `cap` chat completions in any sliding second and
 * answers 429 with Retry-After beyond, recording every request's arrival. It runs on a thread of its own,
 * so the test's or bench's own work (a gateway, a worker) never delays when an arrival is recorded.
 * Answers fit the structured-output schema the engine sends.
 */
export interface RateLimitedProvider {
  baseUrl: string;
  /** Arrival times (ms, this process's performance clock) of every request, and how many were refused. */
  stats(): Promise<{ arrivals: number[]; refused: number }>;
  close(): Promise<void>;
}

const SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { cap, latencyMs, origin } = workerData;
const arrivals = [];
let admitted = [];
let refused = 0;
function answerFor(body) {
  const props = Object.keys((body && body.response_format && body.response_format.json_schema && body.response_format.json_schema.schema && body.response_format.json_schema.schema.properties) || {});
  const value = {};
  for (const p of props) {
    if (p === 'angles') value[p] = ['history', 'today', 'tomorrow'];
    else if (p === 'sections') value[p] = ['One', 'Two', 'Three'].map((h) => ({ heading: h, body: h + ': a body long enough to pass the schema.' }));
    else if (p === 'sources') value[p] = ['https://example.org/source'];
    else value[p] = 'A ' + p + ' written by the remote model for this run.';
  }
  return { id: 'chatcmpl-test', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(value) }, finish_reason: 'stop' }], usage: { prompt_tokens: 1000, completion_tokens: 500 } };
}
const server = http.createServer((req, res) => {
  const now = performance.timeOrigin + performance.now() - origin;
  arrivals.push(now);
  admitted = admitted.filter((t) => t > now - 1000);
  const over = admitted.length >= cap;
  if (!over) admitted.push(now);
  let data = '';
  req.on('data', (c) => (data += c));
  req.on('end', () => {
    if (over) {
      refused++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      return res.end(JSON.stringify({ error: { message: 'rate limit reached' } }));
    }
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answerFor(JSON.parse(data || 'null'))));
    }, latencyMs);
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'stats') parentPort.postMessage({ arrivals, refused });
  if (m === 'close') { server.closeAllConnections(); server.close(() => parentPort.postMessage({ closed: true })); }
});
`;

export async function startRateLimitedProvider(opts: { cap: number; latencyMs?: number }): Promise<RateLimitedProvider> {
  const worker = new Worker(SERVER, {
    eval: true,
    workerData: { cap: opts.cap, latencyMs: opts.latencyMs ?? 20, origin: performance.timeOrigin },
  });
  const next = <T>(pick: (m: any) => T | undefined) =>
    new Promise<T>((resolve) => {
      const on = (m: any) => {
        const v = pick(m);
        if (v !== undefined) {
          worker.off('message', on);
          resolve(v);
        }
      };
      worker.on('message', on);
    });
  const port = await next((m) => m.port as number | undefined);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async stats() {
      const got = next((m) => (m.arrivals ? (m as { arrivals: number[]; refused: number }) : undefined));
      worker.postMessage('stats');
      return got;
    },
    async close() {
      const closed = next((m) => m.closed as boolean | undefined);
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}

/** The tokens every answer reports using (answerFor above: 1,000 of prompt, 500 of answer): a token cap is this many per request. */
export const TOKENS_PER_CALL = 1_500;

/** The most requests that arrived in any one-second window (each window starting at a request). */
export function busiestSecond(arrivals: number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let busiest = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && (sorted[j] as number) < (sorted[i] as number) + 1000) j++;
    busiest = Math.max(busiest, j - i);
  }
  return busiest;
}

/** Requests per second from the first arrival to the last. */
export function throughput(arrivals: number[]): { requests: number; seconds: number; perSecond: number } {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const seconds = ((sorted.at(-1) ?? 0) - (sorted[0] ?? 0)) / 1000;
  return { requests: sorted.length, seconds, perSecond: seconds > 0 ? (sorted.length - 1) / seconds : 0 };
}
