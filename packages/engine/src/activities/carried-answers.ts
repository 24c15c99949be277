import type { ProviderCallRecord } from '@atelier/db';

/** Bytes of answers an attempt's heartbeat carries at most (Temporal refuses details past about 2 MB). */
export const CARRIED_ANSWER_BYTES = 512 * 1024;

/** An attempt's heartbeat details: the answers it bought, and the calls it had not written down yet. */
export interface CarriedDetails {
  answers: Record<string, unknown>;
  unrecorded: ProviderCallRecord[];
}

/**
 * The answers an attempt of a step bought, by idempotency key, carried in its heartbeat so the next
 * attempt (the worker died, or the attempt timed out during an outage) uses them instead of buying them
 * again. Text and classifier answers only: small, plain JSON. At most `limit` bytes are carried; an answer
 * past it is bought again if needed (and recorded again, as it is paid again).
 */
export class CarriedAnswers {
  private readonly answers = new Map<string, unknown>();
  private bytes = 0;

  constructor(private readonly limit = CARRIED_ANSWER_BYTES) {}

  /** What an earlier attempt's heartbeat carried (anything else read as nothing carried). */
  static from(details: unknown, limit = CARRIED_ANSWER_BYTES): { answers: CarriedAnswers; unrecorded: ProviderCallRecord[] } {
    const carried = new CarriedAnswers(limit);
    const d = (details ?? {}) as Partial<CarriedDetails>;
    if (d.answers && typeof d.answers === 'object') for (const [key, answer] of Object.entries(d.answers)) carried.keep(key, answer);
    const unrecorded = Array.isArray(d.unrecorded)
      ? d.unrecorded
          .filter((c) => c && typeof c.callKey === 'string' && typeof c.costUsd === 'number')
          .map((c) => ({ ...c, at: c.at ? new Date(c.at) : undefined }))
      : [];
    return { answers: carried, unrecorded };
  }

  get(key: string): unknown {
    return this.answers.get(key);
  }

  keep(key: string, answer: unknown): void {
    if (answer === undefined || this.answers.has(key)) return;
    const size = Buffer.byteLength(JSON.stringify(answer) ?? '') + key.length;
    if (this.bytes + size > this.limit) return;
    this.bytes += size;
    this.answers.set(key, answer);
  }

  get size(): number {
    return this.answers.size;
  }

  details(unrecorded: ProviderCallRecord[]): CarriedDetails {
    return { answers: Object.fromEntries(this.answers), unrecorded };
  }
}
