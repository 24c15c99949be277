import type pg from 'pg';
import { BoundedClient } from './bounded-client.js';

/**
 * A connection that prepares the statements it runs again and again (named statements): PostgreSQL then
 * parses and analyses each once per connection, not on every call. A run's writes are a dozen CTEs, and
 * parsing and planning them was about half of PostgreSQL's time per run.
 *
 * What is prepared stays bounded: a statement only once any connection has seen its text before (one-off
 * texts, such as IN lists of every length, stay unprepared), and at most PREPARED_PER_CONNECTION per
 * connection; the pool closes idle connections, which drops theirs.
 *
 * A migration that changes what a prepared `SELECT *` returns makes PostgreSQL refuse it ("cached plan
 * must not change result type"): the statement is prepared again under a new name, and run again at once
 * when no transaction is open (it did nothing). Inside a transaction the error stands, since the
 * transaction is aborted; the caller's retry finds it prepared afresh.
 */
export class PreparingClient extends BoundedClient {
  readonly #names = new Map<string, string>();
  #made = 0;
  #inTransaction = false;

  // pg's query has a dozen overloads; only (text, values), kysely's call, is changed.
  override query(...args: any[]): any {
    const [text, values] = args;
    if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values)) return Reflect.apply(super.query, this, args);
    this.#follow(text);
    const name = values.length > 0 ? this.#nameFor(text) : undefined;
    return name ? this.#prepared(name, text, values) : super.query(text, values);
  }

  async #prepared(name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
    try {
      return await super.query({ name, text, values });
    } catch (err) {
      if (!isStalePreparation(err)) throw err;
      this.#names.delete(text);
      if (this.#inTransaction) throw err;
      return super.query(text, values);
    }
  }

  #nameFor(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known) return known;
    if (!seenBefore(text) || this.#names.size >= PREPARED_PER_CONNECTION) return undefined;
    // Unique on this connection: a statement prepared again after a schema change gets a new name.
    const name = `atelier_${++this.#made}`;
    this.#names.set(text, name);
    return name;
  }

  /** Whether a transaction is open, from the statements that open and close one (kysely's `begin`, ...). */
  #follow(text: string): void {
    if (OPENS_TRANSACTION.test(text)) this.#inTransaction = true;
    else if (CLOSES_TRANSACTION.test(text)) this.#inTransaction = false;
  }
}

const PREPARED_PER_CONNECTION = 200;
/** Texts whose use is counted; past that, a text never seen before is never prepared. */
const TEXTS_COUNTED = 5_000;
const seen = new Set<string>();

function seenBefore(text: string): boolean {
  if (seen.has(text)) return true;
  if (seen.size < TEXTS_COUNTED) seen.add(text);
  return false;
}

const OPENS_TRANSACTION = /^\s*(begin|start\s+transaction)\b/i;
// `rollback to savepoint` leaves the transaction open.
const CLOSES_TRANSACTION = /^\s*(commit|end|abort|rollback)(\s+(work|transaction))?\s*;?\s*$/i;

/** The errors that say a connection's prepared statement is no longer usable as prepared. */
export function isStalePreparation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (e.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '')) || e.code === '26000';
}
