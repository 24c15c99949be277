import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type Db, type Executor, connectDb } from '@atelier/db';
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

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await pause(20);
}

type Report = { err: Error & { code?: string }; state: string };

/**
 * A pool of one connection whose losses are collected; `lose` ends that connection (`terminate` names it, and
 * answers what ends it from `admin`) while it does what it does. Answers what was reported, read once the reports settled, after checking that the pool
 * serves a statement again.
 */
async function reportsOf(lose: (db: Db, terminate: (ex: Executor) => Promise<() => Promise<void>>) => Promise<void>): Promise<Report[]> {
  const reported: Report[] = [];
  const db = connectDb({ url, max: 1, onConnectionError: (err, state) => reported.push({ err, state }) });
  try {
    // The connection `ex` uses, and what ends it.
    const terminate = async (ex: Executor) => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(ex);
      return async () => {
        await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(admin);
      };
    };
    await lose(db, terminate);
    await until(() => reported.length > 0);
    await pause(200);
    const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    expect(again.rows).toEqual([{ one: 1 }]);
    return reported;
  } finally {
    await db.destroy();
  }
}

describe('a lost connection', () => {
  it('is reported once while idle, without its client, and the pool replaces it', async () => {
    const reported = await reportsOf(async (db, terminate) => (await terminate(db))());
    expect(reported.map((r) => r.state)).toEqual(['idle']);
    const { err } = reported[0]!;
    expect(err.code).toBe('57P01');
    expect(Object.keys(err)).not.toContain('client');
    expect(JSON.stringify(err).length).toBeLessThan(1_000);
  });

  it('is reported once while checked out between statements, and the pool replaces it', async () => {
    const reported = await reportsOf((db, terminate) =>
      db.connection().execute(async (conn) => {
        await (await terminate(conn))();
        // Held while the server's error and the socket's end come.
        await pause(300);
      }),
    );
    expect(reported.map((r) => r.state)).toEqual(['in use']);
  });

  it('is reported once when the statement in flight is what loses it', async () => {
    const reported = await reportsOf(async (db, terminate) => {
      await db.connection().execute(async (conn) => {
        const end = await terminate(conn);
        const sleeping = sql`SELECT pg_sleep(5)`.execute(conn);
        sleeping.catch(() => undefined);
        await pause(100);
        await end();
        // The statement gets the server's error; the connection's end then comes to the pool, once.
        await expect(sleeping).rejects.toThrow(/terminating connection/);
      });
    });
    expect(reported).toHaveLength(1);
  });
});
