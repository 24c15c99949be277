import { createMiddleware } from 'hono/factory';
import { findAccessSession, stampApiKeyUse } from '@atelier/db';
import { API_KEY_PREFIX, tokenHash } from '../auth/secrets.js';
import { fail } from '../errors.js';
import { kept } from '../kept/index.js';
import type { AppEnv, Principal } from '../services.js';

async function principalFor(
  c: Parameters<Parameters<typeof createMiddleware<AppEnv>>[0]>[0],
  token: string,
): Promise<Principal | undefined> {
  const services = c.get('services');
  const { db } = services;
  if (token.startsWith(API_KEY_PREFIX)) {
    // Kept in memory until api_keys or memberships change (a revocation is heard at once, from any process).
    const found = await kept(services).apiKeys.get(tokenHash(token));
    if (!found) return undefined;
    const key = await stampApiKeyUse(db, found);
    return {
      userId: key.user_id,
      via: 'api_key',
      apiKeyId: key.id,
      apiKeyName: key.name,
      keyWorkspaceId: key.workspace_id,
      home: key.home,
    };
  }
  const session = await findAccessSession(db, tokenHash(token));
  return session ? { userId: session.userId, via: 'session', sessionId: session.sessionId, home: session.home } : undefined;
}

/** Requires `Authorization: Bearer <session token or API key>`; sets the caller's principal. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw fail.unauthorized();
  const principal = await principalFor(c, match[1]);
  if (!principal) throw fail.unauthorized();
  c.set('principal', principal);
  c.set('logger', c.get('logger').child({ userId: principal.userId }));
  await next();
});
