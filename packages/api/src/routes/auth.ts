import { OpenAPIHono, z } from '@hono/zod-openapi';
import { createUserWithWorkspace, findUserByEmail, getUser, revokeSession } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { LoginRequest, RefreshRequest, RegisterRequest, TokenResponse } from '@atelier/contracts/auth';
import { hashPassword, verifyPassword } from '../auth/secrets.js';
import { openSession, refreshSession } from '../auth/sessions.js';
import { judgePassword } from '../auth/password-strength.js';
import { passwordUnderThrottle } from '../auth/throttled-sign-in.js';
import { requestAddress } from '../http/client-address.js';
import { fail, validationHook } from '../errors.js';
import type { AppEnv } from '../services.js';
import { operationsOf } from '../http/operations.js';

const publicOperation = operationsOf('auth', 'public');
const operation = operationsOf('auth');

// A fixed Argon2id hash compared against when the email is unknown, so both failures take as long.
let decoyHash: Promise<string> | undefined;

export const authRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(publicOperation('POST /v1/auth/register', { body: RegisterRequest }, { 201: TokenResponse }), async (c) => {
    const body = c.req.valid('json');
    const { db } = c.get('services');
    const verdict = judgePassword(body.password, body);
    if (!verdict.ok) throw fail.weakPassword('password', verdict);
    const user = await createUserWithWorkspace(db, {
      id: newUuid(),
      email: body.email,
      name: body.name,
      passwordHash: await hashPassword(body.password),
      workspaceId: newUuid(),
      // Not "<name>'s workspace": that reads "You's workspace" for a name like "You" (the dev stack's).
      // The owner's name stays in it because members added later see this name too.
      workspaceName: `Personal workspace (${body.name})`,
    });
    if (!user) throw fail.code('email_taken', { message: 'an account with this email already exists' });
    return c.json(await openSession(db, user), 201);
  })
  .openapi(publicOperation('POST /v1/auth/login', { body: LoginRequest }, { 200: TokenResponse }), async (c) => {
    const body = c.req.valid('json');
    const { db } = c.get('services');
    const user = await findUserByEmail(db, body.email);
    decoyHash ??= hashPassword('decoy-password-for-timing');
    const stored = user?.password_hash ?? (await decoyHash);
    const right = await passwordUnderThrottle(c.get('services'), { email: body.email, address: requestAddress(c) }, () =>
      verifyPassword(stored, body.password),
    );
    if (!user || !right) throw fail.unauthorized('wrong email or password');
    return c.json(await openSession(db, user), 200);
  })
  .openapi(publicOperation('POST /v1/auth/refresh', { body: RefreshRequest }, { 200: TokenResponse }), async (c) => {
    const { db } = c.get('services');
    const next = await refreshSession(db, c.req.valid('json').refreshToken, (id) => getUser(db, id));
    if (!next) throw fail.unauthorized('the refresh token is invalid, expired or was already used');
    return c.json(next, 200);
  })
  .openapi(
    operation(
      'POST /v1/auth/logout',
      {},
      { 200: { description: 'Signed out', content: { 'application/json': { schema: z.object({ ok: z.literal(true) }) } } } },
    ),
    async (c) => {
      const principal = c.get('principal');
      if (principal.sessionId) await revokeSession(c.get('services').db, principal.sessionId);
      return c.json({ ok: true as const }, 200);
    },
  );
