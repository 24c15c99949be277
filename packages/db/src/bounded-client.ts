import pg from 'pg';

/** pg's message when a query outlived its `query_timeout`. */
export const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * A connection that is closed as soon as one of its queries outlives the pool's `query_timeout`.
 *
 * pg answers the caller when the time is up but leaves the query on the wire: the connection still waits
 * for the server's reply, so the next query on it (kysely's rollback, or the next request once the pool
 * hands it out again) would queue behind a reply that a frozen server never sends, and pay the whole
 * timeout again. Closing it instead makes whatever follows on it fail at once, and the pool drops it
 * (pg-pool discards a client that is ending) and opens a fresh one when the server answers again.
 *
 * What the server does with a statement it had already received is up to it: it runs it once it wakes,
 * then finds the connection gone. A transaction is rolled back then, unless the statement that timed out
 * was its COMMIT, which may still take effect.
 */
export class BoundedClient extends pg.Client {
  // pg's query has a dozen overloads; only the promise forms (kysely's) are watched.
  override query(...args: any[]): any {
    const result = Reflect.apply(super.query, this, args);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      if (err instanceof Error && err.message === QUERY_TIMEOUT_MESSAGE) {
        // end() destroys the socket at once when a query is still active, without the goodbye a frozen server would not read.
        void this.end().catch(() => undefined);
      }
      throw err;
    });
  }
}
