import { describe, expect, it } from 'vitest';
import { KeptReads } from '../src/kept/kept-reads.js';

/** A listener that hears what the test announces, and is up or down as the test says. */
class Listener {
  hearing = true;
  connects = 0;
  private watchers: Array<(table?: string) => void> = [];
  watchTables(watcher: (table?: string) => void) {
    this.watchers.push(watcher);
    return () => undefined;
  }
  async listen() {
    this.connects += 1;
  }
  announce(table?: string) {
    for (const watcher of this.watchers) watcher(table);
  }
}

/** A table as the reads see it, counting them; `gate` holds the next read until released. */
function table(initial: string) {
  const state = { value: initial, reads: 0, gate: undefined as Promise<void> | undefined };
  const read = async (_key: string) => {
    state.reads += 1;
    const seen = state.value;
    await state.gate;
    return { value: seen };
  };
  return { state, read };
}

describe('KeptReads', () => {
  it('keeps a value until one of its tables is announced, ignoring other tables', async () => {
    const hub = new Listener();
    const { state, read } = table('v1');
    const kept = new KeptReads(hub, ['workflows'], read);
    expect(await kept.get('a')).toEqual({ value: 'v1' });
    state.value = 'v2';
    expect(await kept.get('a')).toEqual({ value: 'v1' });
    hub.announce('api_keys');
    expect(await kept.get('a')).toEqual({ value: 'v1' });
    hub.announce('workflows');
    expect(await kept.get('a')).toEqual({ value: 'v2' });
    expect(state.reads).toBe(2);
  });

  it('does not keep a read that a change overtook', async () => {
    const hub = new Listener();
    const { state, read } = table('v1');
    const kept = new KeptReads(hub, ['workflows'], read);
    let release!: () => void;
    state.gate = new Promise((r) => {
      release = r;
    });
    const slow = kept.get('a');
    await Promise.resolve();
    state.value = 'v2';
    hub.announce('workflows');
    state.gate = undefined;
    release();
    expect(await slow).toEqual({ value: 'v1' });
    // The old value was not kept: the next read goes to the table.
    expect(await kept.get('a')).toEqual({ value: 'v2' });
    expect(state.reads).toBe(2);
  });

  it('reads through while not hearing, asks to listen, and forgets on a lost connection', async () => {
    const hub = new Listener();
    const { state, read } = table('v1');
    const kept = new KeptReads(hub, ['workflows'], read);
    await kept.get('a');
    hub.hearing = false;
    hub.announce(); // the connection was lost
    state.value = 'v2';
    expect(await kept.get('a')).toEqual({ value: 'v2' });
    state.value = 'v3';
    expect(await kept.get('a')).toEqual({ value: 'v3' });
    expect(hub.connects).toBe(2);
    hub.hearing = true;
    expect(await kept.get('a')).toEqual({ value: 'v3' });
    state.value = 'v4';
    expect(await kept.get('a')).toEqual({ value: 'v3' });
  });

  it('keeps only what `keeps` accepts, frozen', async () => {
    const hub = new Listener();
    let reads = 0;
    const kept = new KeptReads(
      hub,
      ['api_keys'],
      async (key: string) => {
        reads += 1;
        return key === 'known' ? { home: { role: 'owner' } } : undefined;
      },
      (value) => value !== undefined,
    );
    await kept.get('unknown');
    await kept.get('unknown');
    expect(reads).toBe(2);
    const value = await kept.get('known');
    await kept.get('known');
    expect(reads).toBe(3);
    expect(Object.isFrozen(value?.home)).toBe(true);
  });
});
