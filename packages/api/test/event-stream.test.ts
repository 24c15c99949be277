import { describe, expect, it } from 'vitest';
import { EventStream } from '../src/http/event-stream.js';

const text = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

describe('EventStream', () => {
  it('writes the events added before a flush as one chunk, in the event stream format', async () => {
    const stream = new EventStream();
    const reader = stream.body.getReader();
    stream.event({ event: 'snapshot', id: '3', data: '{"a":1}' });
    stream.event({ event: 'step.output.delta', data: 'two\nlines' });
    stream.comment('heartbeat');
    const read = reader.read(); // a reader waiting, as the server adapter's is while the socket takes writes
    await stream.flush();
    const { value } = await read;
    expect(text(value)).toBe(
      'event: snapshot\ndata: {"a":1}\nid: 3\n\nevent: step.output.delta\ndata: two\ndata: lines\n\n: heartbeat\n\n',
    );
    await stream.close();
    expect((await reader.read()).done).toBe(true);
  });

  it('refuses a line break in a single-line field', () => {
    expect(() => new EventStream().event({ event: 'a\nb', data: '{}' })).toThrow(/line break/);
    expect(() => new EventStream().event({ event: 'a', id: '1\r', data: '{}' })).toThrow(/line break/);
  });

  it('makes a flush wait until the client has taken its chunk, and go on once it reads', async () => {
    const stream = new EventStream();
    const reader = stream.body.getReader();
    stream.event({ event: 'one', data: '1' });
    let flushed = false;
    const first = stream.flush().then(() => {
      flushed = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(flushed).toBe(false);
    expect(text((await reader.read()).value)).toBe('event: one\ndata: 1\n\n');
    await first;
    expect(flushed).toBe(true);
  });

  it('ends a waiting flush and tells its listeners when the client goes, and writes nothing after', async () => {
    const stream = new EventStream();
    let told = 0;
    stream.onAbort(() => told++);
    stream.event({ event: 'one', data: '1' });
    const waiting = stream.flush();
    await stream.body.cancel();
    await waiting;
    expect(stream.aborted).toBe(true);
    expect(told).toBe(1);
    stream.event({ event: 'three', data: '3' });
    await stream.flush();
    await stream.close();
  });
});
