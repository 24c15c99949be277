import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import { compiledOnce } from './compiled-once.js';
import type { Db, Executor } from './connect.js';
import type { ApiKeysTable, UsersTable } from './schema.js';
import { isUniqueViolation } from './errors.js';
import type { HomeMembership } from './workspaces.js';
import { pageOf } from './paging.js';

export type UserRow = Selectable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
/** A live key as authentication reads it: with the membership of the workspace it acts in by default. */
export type LiveApiKey = ApiKeyRow & { home: HomeMembership };

export interface NewUser {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  workspaceId: string;
  workspaceName: string;
}

/** Creates the user and their personal workspace, where they are owner. Null when the email is taken. */
export async function createUserWithWorkspace(db: Db, u: NewUser): Promise<UserRow | null> {
  return db.transaction().execute(async (tx) => {
    const user = await tx
      .insertInto('users')
      .values({ id: u.id, email: u.email, name: u.name, password_hash: u.passwordHash })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!user) return null;
    await tx.insertInto('workspaces').values({ id: u.workspaceId, name: u.workspaceName, personal: true }).execute();
    await tx.insertInto('memberships').values({ workspace_id: u.workspaceId, user_id: u.id, role: 'owner' }).execute();
    return user;
  });
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

export async function getUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface TokenPair {
  sessionId: string;
  accessHash: string;
  refreshHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
}

/** Opens a session (a refresh-token family) with its first token pair. */
export async function createSession(db: Db, userId: string, pair: TokenPair): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('auth_sessions').values({ id: pair.sessionId, user_id: userId }).execute();
    await insertPair(tx as unknown as Db, pair);
  });
}

async function insertPair(db: Db, pair: TokenPair): Promise<void> {
  await db
    .insertInto('auth_tokens')
    .values([
      { token_hash: pair.accessHash, session_id: pair.sessionId, kind: 'access', expires_at: pair.accessExpiresAt },
      { token_hash: pair.refreshHash, session_id: pair.sessionId, kind: 'refresh', expires_at: pair.refreshExpiresAt },
    ])
    .execute();
}

export interface ActiveSession {
  sessionId: string;
  userId: string;
  /** The user's default workspace and role there, read in the same query. */
  home: HomeMembership;
}

/** The live session an access token belongs to, or undefined when it is unknown, expired or revoked. */
export async function findAccessSession(db: Db, tokenHash: string): Promise<ActiveSession | undefined> {
  const row = await db
    .selectFrom('auth_tokens as t')
    .innerJoin('auth_sessions as s', 's.id', 't.session_id')
    // The default workspace's membership rides along: a request acting there needs no access query of its own.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('memberships as m')
          .select(['m.workspace_id', 'm.role'])
          .whereRef('m.user_id', '=', 's.user_id')
          .orderBy('m.created_at')
          .orderBy('m.workspace_id')
          .limit(1)
          .as('home'),
      (join) => join.onTrue(),
    )
    .select(['s.id as sessionId', 's.user_id as userId', 'home.workspace_id as home_workspace_id', 'home.role as home_role'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.kind', '=', 'access')
    .where('t.expires_at', '>', new Date())
    .where('s.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return { sessionId: row.sessionId, userId: row.userId, home: { workspaceId: row.home_workspace_id, role: row.home_role } };
}

export type RefreshOutcome = { ok: true; userId: string } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' };

/**
 * Rotates a refresh token: the presented one dies and `next` replaces the family's pair. Presenting a
 * token that was already used means it leaked, so the whole family is revoked.
 */
export async function rotateRefreshToken(db: Db, tokenHash: string, next: Omit<TokenPair, 'sessionId'>): Promise<RefreshOutcome> {
  return db.transaction().execute(async (tx) => {
    const token = await tx
      .selectFrom('auth_tokens as t')
      .innerJoin('auth_sessions as s', 's.id', 't.session_id')
      .select(['t.session_id', 't.used_at', 't.expires_at', 's.revoked_at', 's.user_id'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.kind', '=', 'refresh')
      .forUpdate()
      .executeTakeFirst();
    if (!token) return { ok: false, reason: 'unknown' } as const;
    if (token.revoked_at) return { ok: false, reason: 'revoked' } as const;
    if (token.used_at) {
      await tx.updateTable('auth_sessions').set({ revoked_at: new Date() }).where('id', '=', token.session_id).execute();
      return { ok: false, reason: 'reused' } as const;
    }
    if (token.expires_at <= new Date()) return { ok: false, reason: 'expired' } as const;
    const now = new Date();
    await tx.updateTable('auth_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).execute();
    // The family's previous access tokens stop working as soon as a new pair is issued.
    await tx
      .updateTable('auth_tokens')
      .set({ expires_at: now })
      .where('session_id', '=', token.session_id)
      .where('kind', '=', 'access')
      .where('expires_at', '>', now)
      .execute();
    await insertPair(tx as unknown as Db, { ...next, sessionId: token.session_id });
    return { ok: true, userId: token.user_id } as const;
  });
}

/** Revokes the sessions `which` names (one by its id, or all of a user's) that are not revoked yet. */
async function revokeSessions(db: Db, which: { id: string } | { user_id: string }): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ revoked_at: new Date() })
    .where((eb) => eb.and(which))
    .where('revoked_at', 'is', null)
    .execute();
}

export const revokeSession = (db: Db, sessionId: string) => revokeSessions(db, { id: sessionId });

export const revokeAllSessions = (db: Db, userId: string) => revokeSessions(db, { user_id: userId });

export interface NewApiKey {
  id: string;
  userId: string;
  workspaceId: string | null;
  name: string;
  prefix: string;
  secretHash: string;
}

export async function createApiKey(db: Db, k: NewApiKey): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({ id: k.id, user_id: k.userId, workspace_id: k.workspaceId, name: k.name, prefix: k.prefix, secret_hash: k.secretHash })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** How stale `last_used_at` may get: a key used by many concurrent requests is written once a minute, not each time. */
export const API_KEY_STAMP_MS = 60_000;

/** The live key with this secret hash, with the membership it acts through. */
export async function findLiveApiKey(db: Db, secretHash: string): Promise<LiveApiKey | undefined> {
  const [row] = (await liveKeyBySecret(db, secretHash)).rows;
  if (!row) return undefined;
  const { home_workspace_id, home_role, ...fields } = row;
  return { ...fields, home: { workspaceId: fields.workspace_id ?? home_workspace_id, role: home_role } };
}

/**
 * The key as used `now`: its `last_used_at` written when it is more than a minute old (stampOnce). A key
 * is found first and stamped only when stale, so a busy key's requests do not queue on its row lock.
 */
export async function stampApiKeyUse(db: Db, key: LiveApiKey, now = new Date()): Promise<LiveApiKey> {
  if (key.last_used_at && now.getTime() - key.last_used_at.getTime() < API_KEY_STAMP_MS) return key;
  return { ...key, last_used_at: await stampOnce(db, key.id, now) };
}

/** Every request with an API key makes this lookup, so its text is compiled once. */
const liveKeyBySecret = compiledOnce((db: Executor, secretHash: string) =>
  db
    .selectFrom('api_keys as k')
    // The membership in the key's workspace (bound, else the user's default) rides along: a request
    // acting there needs no access query of its own.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('memberships as m')
          .select(['m.workspace_id', 'm.role'])
          .whereRef('m.user_id', '=', 'k.user_id')
          .where((w) => w.or([w('k.workspace_id', 'is', null), w('m.workspace_id', '=', w.ref('k.workspace_id'))]))
          .orderBy('m.created_at')
          .orderBy('m.workspace_id')
          .limit(1)
          .as('home'),
      (join) => join.onTrue(),
    )
    .selectAll('k')
    .select(['home.workspace_id as home_workspace_id', 'home.role as home_role'])
    .where('k.secret_hash', '=', secretHash)
    .where('k.revoked_at', 'is', null),
);

/** Stamps in flight by key id: the requests that find a key's stamp stale together share one write. */
const stamping = new Map<string, Promise<Date>>();

/**
 * Writes a key's `last_used_at` once for all the concurrent requests that found it stale (a burst on one
 * key used to queue them all on its row lock, one write each); the write skips a stamp newer than the
 * minute, as another gateway's may be.
 */
function stampOnce(db: Db, keyId: string, now: Date): Promise<Date> {
  const inFlight = stamping.get(keyId);
  if (inFlight) return inFlight;
  // The stamp as it stands after the write: a request whose read saw it stale just before another stamped it
  // (and finished after that stamp left `stamping`) gets that stamp, not its own that was never written.
  const stamped = db
    .updateTable('api_keys')
    .set({
      last_used_at: sql<Date>`CASE WHEN last_used_at IS NULL OR last_used_at < ${new Date(now.getTime() - API_KEY_STAMP_MS)}
        THEN ${now}::timestamptz ELSE last_used_at END`,
    })
    .where('id', '=', keyId)
    .returning('last_used_at')
    .executeTakeFirst()
    .then((row) => row?.last_used_at ?? now)
    .finally(() => stamping.delete(keyId));
  stamping.set(keyId, stamped);
  return stamped;
}

/** Which of a user's keys a caller may see: all of them, or (for a workspace-bound key) those bound to its workspace. */
export interface KeyScope {
  userId: string;
  onlyWorkspaceId?: string | null;
}

export async function listApiKeys(
  db: Db,
  scope: KeyScope,
  page: { offset: number; limit: number },
): Promise<{ items: ApiKeyRow[]; total: number }> {
  let base = db.selectFrom('api_keys').where('user_id', '=', scope.userId).where('revoked_at', 'is', null);
  if (scope.onlyWorkspaceId) base = base.where('workspace_id', '=', scope.onlyWorkspaceId);
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], page);
}

export async function getApiKey(db: Db, scope: KeyScope, id: string): Promise<ApiKeyRow | undefined> {
  let query = db.selectFrom('api_keys').selectAll().where('id', '=', id).where('user_id', '=', scope.userId);
  if (scope.onlyWorkspaceId) query = query.where('workspace_id', '=', scope.onlyWorkspaceId);
  return query.executeTakeFirst();
}

export async function revokeApiKey(db: Db, scope: KeyScope, id: string): Promise<ApiKeyRow | undefined> {
  const existing = await getApiKey(db, scope, id);
  if (!existing) return undefined;
  if (existing.revoked_at) return existing;
  return db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function revokeAllApiKeys(db: Db, userId: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

export interface UserPatch {
  name?: string;
  email?: string;
  passwordHash?: string;
}

export type UserUpdateOutcome = { ok: true; user: UserRow } | { ok: false; reason: 'not_found' | 'email_taken' };

/** Changes name, email or password hash; an email another account holds (ignoring case) is refused. */
export async function updateUser(db: Db, id: string, patch: UserPatch): Promise<UserUpdateOutcome> {
  const set: { name?: string; email?: string; password_hash?: string; updated_at: Date } = { updated_at: new Date() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.email !== undefined) set.email = patch.email;
  if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash;
  if (Object.keys(set).length === 1) {
    const user = await getUser(db, id);
    return user ? { ok: true, user } : { ok: false, reason: 'not_found' };
  }
  try {
    const user = await db.updateTable('users').set(set).where('id', '=', id).returningAll().executeTakeFirst();
    return user ? { ok: true, user } : { ok: false, reason: 'not_found' };
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, reason: 'email_taken' };
    throw err;
  }
}

/** Signs the user out everywhere except the session named (used after a password change). */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId?: string): Promise<void> {
  let q = db.updateTable('auth_sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId) q = q.where('id', '!=', keepSessionId);
  await q.execute();
}

/**
 * Files an account deletion request (pending an operator's review) and revokes every live API key of the
 * user in the same transaction. A standing request is returned unchanged; keys are revoked either way.
 * Sessions are left alone: the user is not signed out.
 */
export async function requestAccountDeletion(db: Db, userId: string, reason: string | null): Promise<UserRow | undefined> {
  return db.transaction().execute(async (tx) => {
    const user = await tx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!user) return undefined;
    const now = new Date();
    await tx.updateTable('api_keys').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    if (user.deletion_status) return user;
    return tx
      .updateTable('users')
      .set({ deletion_status: 'pending', deletion_requested_at: now, deletion_reason: reason, updated_at: now })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export type DeletionWithdrawal =
  | { outcome: 'withdrawn'; user: UserRow }
  | { outcome: 'no_request' }
  | { outcome: 'approved' }
  | { outcome: 'not_found' };

/** Withdraws a deletion request while it is still pending. Revoked API keys stay revoked. */
export async function withdrawAccountDeletion(db: Db, userId: string): Promise<DeletionWithdrawal> {
  return db.transaction().execute(async (tx) => {
    const user = await tx.selectFrom('users').select('deletion_status').where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!user) return { outcome: 'not_found' } as const;
    if (!user.deletion_status) return { outcome: 'no_request' } as const;
    if (user.deletion_status !== 'pending') return { outcome: 'approved' } as const;
    const restored = await tx
      .updateTable('users')
      .set({ deletion_status: null, deletion_requested_at: null, deletion_reason: null, updated_at: new Date() })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { outcome: 'withdrawn', user: restored } as const;
  });
}
