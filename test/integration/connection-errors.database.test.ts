import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type Db, connectDb } from '@atelier/db';
import { createTestDatabase } from '../support/harness';

/**
 * A pool's lost connections against real PostgreSQL: a connection the server ends while it sits idle (as it
 * does to every session when it shuts down) reaches onConnectionError as the server's error alone, without
 * the client pg-pool hangs on it, so a log line stays one line; the pool goes on with a new connection.
 */
let url: string;
let admin: Db;

beforeAll(async () => {
  url = await createTestDatabase();
  admin = connectDb({ url, max: 1 });
});
afterAll(async () => {
  await admin?.destroy();
});

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

describe('a lost connection', () => {
  it('is reported once while idle, without its client, and the pool replaces it', async () => {
    const reported: Array<{ err: Error; state: string }> = [];
    const db = connectDb({ url, max: 1, onConnectionError: (err, state) => reported.push({ err, state }) });
    try {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
      await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(admin);
      await until(() => reported.length > 0);
      await new Promise((r) => setTimeout(r, 200));

      expect(reported).toHaveLength(1);
      const [{ err, state }] = reported as [{ err: Error & { code?: string }; state: string }];
      expect(state).toBe('idle');
      expect(err.code).toBe('57P01');
      expect(Object.keys(err)).not.toContain('client');
      expect(JSON.stringify(err).length).toBeLessThan(1_000);
      const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('is reported once while checked out between statements, and the pool replaces it', async () => {
    const reported: Array<{ err: Error; state: string }> = [];
    const db = connectDb({ url, max: 1, onConnectionError: (err, state) => reported.push({ err, state }) });
    try {
      await db.connection().execute(async (conn) => {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(conn);
        await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(admin);
        await until(() => reported.length > 0);
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(reported.map((r) => r.state)).toEqual(['in use']);
      const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('is reported once when the statement in flight is what loses it', async () => {
    const reported: Array<{ err: Error; state: string }> = [];
    const db = connectDb({ url, max: 1, onConnectionError: (err, state) => reported.push({ err, state }) });
    try {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
      const sleeping = sql`SELECT pg_sleep(5)`.execute(db);
      sleeping.catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(admin);
      // The statement gets the server's error; the connection's end then comes to the pool, once.
      await expect(sleeping).rejects.toThrow(/terminating connection/);
      await until(() => reported.length > 0);
      await new Promise((r) => setTimeout(r, 200));
      expect(reported).toHaveLength(1);
      const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });
});
