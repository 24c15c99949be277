import { describe, expect, it } from 'vitest';
import { LOCAL_MODELS } from '@atelier/domain';
import { createLocalProvider } from '../src/providers/local/index.js';

const textModel = LOCAL_MODELS.find((m) => m.id === 'local/text-1')!;
const schema = { type: 'object', required: ['title'], properties: { title: { type: 'string' }, summary: { type: 'string' } } };

describe('the local text model streaming', () => {
  it('writes its answer in pieces over its latency, the same answer as without streaming', async () => {
    for (const jsonSchema of [undefined, schema]) {
      const req = { model: textModel, prompt: 'Write about "tide pools"', seed: 'step-1#1', ...(jsonSchema ? { jsonSchema } : {}) };
      const pieces: Array<{ text: string; at: number }> = [];
      const started = Date.now();
      const streamed = await createLocalProvider({ latencyMs: 400 }).text.complete({
        ...req,
        onDelta: (text) => pieces.push({ text, at: Date.now() - started }),
      });
      const took = Date.now() - started;
      const plain = await createLocalProvider().text.complete(req);
      expect(streamed).toEqual(plain);
      expect(pieces.map((p) => p.text).join('')).toBe(plain.text);
      expect(pieces.length).toBeGreaterThanOrEqual(4);
      // Spread over the latency, not all at its end, and no longer than it.
      expect(pieces[0]!.at).toBeLessThan(200);
      expect(took).toBeGreaterThanOrEqual(390);
      expect(took).toBeLessThan(1_500);
    }
  });

  it('writes nothing piecemeal without latency, and stops when the call is cancelled', async () => {
    const pieces: string[] = [];
    await createLocalProvider().text.complete({ model: textModel, prompt: 'x', seed: 's', onDelta: (t) => pieces.push(t) });
    expect(pieces).toEqual([]);
    const controller = new AbortController();
    const call = createLocalProvider({ latencyMs: 2000 }).text.complete({
      model: textModel,
      prompt: 'Write about "owls"',
      seed: 's',
      signal: controller.signal,
      onDelta: (t) => pieces.push(t),
    });
    setTimeout(() => controller.abort(new Error('cancelled')), 200);
    await expect(call).rejects.toThrow('cancelled');
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.length).toBeLessThan(10);
  });
});
