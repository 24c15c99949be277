/**
 * A server-sent event stream that writes what is ready in one piece. The events a route has at hand
 * (several announcements heard in one notification packet, a read of recorded events) are formatted into
 * one string and handed to the socket as one chunk when the route `flush`es, so a burst costs one write
 * and one wake-up of the client, not one per event. The body is a single ReadableStream, read by the
 * server adapter as it reads any body; a client that reads slower than events come makes `flush` wait
 * until the adapter has taken its chunk, which it does once the socket has taken the one before.
 */
export class EventStream {
  readonly body: ReadableStream<Uint8Array>;
  /** Set once the client has gone (the server adapter cancels the body); nothing is written after. */
  aborted = false;
  private pending = '';
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly encoder = new TextEncoder();
  private pulled: (() => void) | undefined;
  private readonly abortListeners: Array<() => void> = [];

  constructor() {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => this.resumeWriter(),
        cancel: () => {
          this.aborted = true;
          this.resumeWriter();
          for (const listener of this.abortListeners) listener();
        },
      },
      // The server adapter keeps a read waiting while the socket takes writes, so a chunk is taken at once;
      // one left unread means the socket is full, and `flush` waits for its read.
      { highWaterMark: 1 },
    );
  }

  /** Adds an event to what the next flush writes. `event` and `id` are single lines; `data` may span several. */
  event(message: { event: string; data: string; id?: string }): void {
    if (/[\r\n]/.test(message.event) || (message.id !== undefined && /[\r\n]/.test(message.id))) {
      throw new Error('an event stream field must not contain a line break');
    }
    const data = /[\r\n]/.test(message.data) ? message.data.split(/\r\n|\r|\n/).join('\ndata: ') : message.data;
    this.pending += `event: ${message.event}\ndata: ${data}\n${message.id === undefined ? '' : `id: ${message.id}\n`}\n`;
  }

  /** Adds a comment line (a heartbeat: clients ignore it, proxies see traffic). */
  comment(text: string): void {
    this.pending += `: ${text}\n\n`;
  }

  onAbort(listener: () => void): void {
    this.abortListeners.push(listener);
  }

  /** Writes what was added since the last flush as one chunk; returns once the chunk is taken (or the client has gone). */
  async flush(): Promise<void> {
    if (this.aborted || this.pending === '') return;
    this.controller.enqueue(this.encoder.encode(this.pending));
    this.pending = '';
    while (!this.aborted && (this.controller.desiredSize ?? 1) <= 0) {
      await new Promise<void>((resolve) => {
        this.pulled = resolve;
      });
    }
  }

  /** Writes what is left and ends the stream (after the client has gone, there is nothing to end). */
  async close(): Promise<void> {
    await this.flush();
    if (!this.aborted) this.controller.close();
  }

  private resumeWriter(): void {
    const resume = this.pulled;
    this.pulled = undefined;
    resume?.();
  }
}

/** The headers of an event stream response. */
export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'Transfer-Encoding': 'chunked',
} as const;
