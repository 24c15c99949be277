import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

// numeric stays a string in the row types; bigint counts (COUNT(*)) become numbers.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// date columns (consent terms, renewals) are calendar days: keep YYYY-MM-DD rather than a local-midnight Date.
pg.types.setTypeParser(1082, (v) => v);

export type Db = Kysely<Database>;

export interface ConnectOptions {
  url: string;
  /** Pool size; the gateway and the worker each hold their own pool. */
  max?: number;
}

export function connectDb({ url, max = 10 }: ConnectOptions): Db {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
