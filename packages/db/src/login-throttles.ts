import { sql } from 'kysely';
import type { Db } from './connect.js';

/** The two things a failed sign-in is counted against. */
export type ThrottleScope = 'account' | 'address';

/**
 * How one scope throttles. `budget` failures are answered as usual; once a key's count reaches it, the
 * key is blocked for `backoffSeconds`, and each failure admitted after a block ends blocks it again for
 * twice as long, up to `backoffMaxSeconds`. A count starts over once the key has been quiet (no failure)
 * for `windowSeconds`, which is never shorter than the longest block.
 */
export interface ThrottleRule {
  budget: number;
  windowSeconds: number;
  backoffSeconds: number;
  backoffMaxSeconds: number;
}

export interface ThrottleKey {
  scope: ThrottleScope;
  key: string;
  rule: ThrottleRule;
}

export type Admission =
  /** `stamps`: the database's time of this attempt on each key, which `refundLoginAttempt` needs. */
  { admitted: true; stamps: Partial<Record<ThrottleScope, Date>> } | { admitted: false; retryAfterSeconds: number };

/**
 * Admits a sign-in attempt, counting it as a failure in advance against every key: a burst of concurrent
 * guesses cannot all pass the check before any is counted. An attempt on a blocked key is refused and
 * counted nowhere, so hammering a block neither extends it nor spills onto the other key. Times are the
 * database's, so every gateway reads the same clock.
 */
export async function admitLoginAttempt(db: Db, keys: ThrottleKey[]): Promise<Admission> {
  const blocked = await blockedFor(db, keys);
  if (blocked > 0) return { admitted: false, retryAfterSeconds: blocked };
  const stamps: Partial<Record<ThrottleScope, Date>> = {};
  for (const k of keys) {
    const row = await countFailure(db, k);
    // Another gateway's attempt blocked the key between the check and this count.
    if (!row) return { admitted: false, retryAfterSeconds: Math.max(1, await blockedFor(db, keys)) };
    stamps[k.scope] = row.last_failure_at;
  }
  return { admitted: true, stamps };
}

/** Seconds until every key is unblocked (rounded up); 0 when none is blocked. */
async function blockedFor(db: Db, keys: ThrottleKey[]): Promise<number> {
  const { rows } = await sql<{ seconds: number | null }>`
    SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::integer AS seconds
    FROM login_throttles
    WHERE (scope, key) IN (${sql.join(keys.map((k) => sql`(${k.scope}, ${k.key})`))}) AND blocked_until > now()`.execute(db);
  return rows[0]?.seconds ?? 0;
}

/** One more failure on an unblocked key, and the block it earns; nothing (no row) when the key is blocked. */
async function countFailure(db: Db, { scope, key, rule }: ThrottleKey) {
  const quiet = sql`login_throttles.last_failure_at <= now() - make_interval(secs => ${rule.windowSeconds})`;
  const failures = sql`CASE WHEN ${quiet} THEN 1 ELSE login_throttles.failures + 1 END`;
  const blockFor = (n: ReturnType<typeof sql>) => sql`CASE WHEN ${n} >= ${rule.budget}
    THEN now() + make_interval(secs => least(${rule.backoffSeconds} * power(2, least(${n} - ${rule.budget}, 30)), ${rule.backoffMaxSeconds}))
    END`;
  const { rows } = await sql<{ last_failure_at: Date }>`
    INSERT INTO login_throttles (scope, key, failures, last_failure_at, blocked_until)
    VALUES (${scope}, ${key}, 1, now(), ${blockFor(sql`1`)})
    ON CONFLICT (scope, key) DO UPDATE SET
      failures = ${failures},
      last_failure_at = now(),
      blocked_until = ${blockFor(failures)}
    WHERE login_throttles.blocked_until IS NULL OR login_throttles.blocked_until <= now()
    RETURNING last_failure_at`.execute(db);
  return rows[0];
}

/** The account's count starts over: its owner proved the password. */
export async function clearLoginFailures(db: Db, scope: ThrottleScope, key: string): Promise<void> {
  await db.deleteFrom('login_throttles').where('scope', '=', scope).where('key', '=', key).execute();
}

/**
 * Takes back an attempt counted in advance that turned out right (an address is shared: one success
 * there does not wipe other callers' failures). A block that very attempt set is lifted with it.
 */
export async function refundLoginAttempt(db: Db, scope: ThrottleScope, key: string, stamp: Date): Promise<void> {
  await db
    .updateTable('login_throttles')
    .set({
      failures: sql`greatest(failures - 1, 0)`,
      // The stamp came back through a JavaScript Date: milliseconds, where the column keeps microseconds.
      blocked_until: sql`CASE WHEN date_trunc('milliseconds', last_failure_at) = ${stamp} THEN NULL ELSE blocked_until END`,
    })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .execute();
}

/** Forgets keys quiet for longer than `windowSeconds` (their count would start over anyway). */
export async function sweepLoginThrottles(db: Db, windowSeconds: number): Promise<number> {
  const result = await db
    .deleteFrom('login_throttles')
    .where('last_failure_at', '<', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
