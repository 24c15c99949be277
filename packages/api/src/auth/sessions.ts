import { type Db, type UserRow, createSession, rotateRefreshToken } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { newSessionToken, tokenHash } from './secrets.js';

export const ACCESS_TTL_SECONDS = 60 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 60 * 60;

function freshPair() {
  const accessToken = newSessionToken();
  const refreshToken = newSessionToken();
  const now = Date.now();
  return {
    tokens: { accessToken, refreshToken },
    hashes: {
      accessHash: tokenHash(accessToken),
      refreshHash: tokenHash(refreshToken),
      accessExpiresAt: new Date(now + ACCESS_TTL_SECONDS * 1000),
      refreshExpiresAt: new Date(now + REFRESH_TTL_SECONDS * 1000),
    },
  };
}

const tokenResponse = (tokens: { accessToken: string; refreshToken: string }, user: Pick<UserRow, 'id' | 'email' | 'name'>) => ({
  ...tokens,
  tokenType: 'bearer' as const,
  expiresIn: ACCESS_TTL_SECONDS,
  user: { id: user.id, email: user.email, name: user.name },
});

/** Opens a new session for the user and returns the contract's TokenResponse. */
export async function openSession(db: Db, user: Pick<UserRow, 'id' | 'email' | 'name'>) {
  const { tokens, hashes } = freshPair();
  await createSession(db, user.id, { sessionId: newUuid(), ...hashes });
  return tokenResponse(tokens, user);
}

/** Rotates a refresh token; null when it is unknown, expired, revoked or reused (which revokes its family). */
export async function refreshSession(db: Db, refreshToken: string, loadUser: (id: string) => Promise<UserRow | undefined>) {
  const { tokens, hashes } = freshPair();
  const outcome = await rotateRefreshToken(db, tokenHash(refreshToken), hashes);
  if (!outcome.ok) return null;
  const user = await loadUser(outcome.userId);
  return user ? tokenResponse(tokens, user) : null;
}
