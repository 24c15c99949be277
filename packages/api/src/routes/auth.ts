import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { createUserWithWorkspace, findUserByEmail, getUser, revokeSession } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { LoginRequest, RefreshRequest, RegisterRequest, TokenResponse } from '@atelier/contracts/auth';
import { hashPassword, verifyPassword } from '../auth/secrets.js';
import { openSession, refreshSession } from '../auth/sessions.js';
import { judgePassword } from '../auth/password-strength.js';
import { passwordUnderThrottle } from '../auth/throttled-sign-in.js';
import { requestAddress } from '../http/client-address.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured } from '../http/route.js';

const tokens = { ...json(TokenResponse) };

// A fixed Argon2id hash compared against when the email is unknown, so both failures take as long.
let decoyHash: Promise<string> | undefined;

export const authRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      method: 'post',
      path: '/v1/auth/register',
      tags: ['auth'],
      summary: 'Create an account and its personal workspace',
      description:
        'The password must be hard to guess (zxcvbn score 3 or more) and must not contain the email or the name; ' +
        'a 422 entry of type password_too_weak on body.password says why.',
      request: { body: jsonBody(RegisterRequest) },
      responses: { 201: { description: 'Signed in', ...tokens }, ...errorResponses(409, 422) },
    }),
    async (c) => {
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
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/v1/auth/login',
      tags: ['auth'],
      summary: 'Sign in with email and password',
      description:
        'Failed sign-ins are counted per account and per client address across all gateways. Past a budget of failures ' +
        'the account (or address) is refused with 429 and a Retry-After header for a back-off that doubles with each further ' +
        'failure, up to a cap (15 minutes by default); attempts refused that way are not counted. A successful sign-in ' +
        "starts the account's count over.",
      request: { body: jsonBody(LoginRequest) },
      responses: { 200: { description: 'Signed in', ...tokens }, ...errorResponses(401, 422, 429) },
    }),
    async (c) => {
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
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/v1/auth/refresh',
      tags: ['auth'],
      summary: 'Exchange a refresh token for a new pair (the old one dies)',
      description:
        'Public: send the refresh token of a session to get a new access and refresh token pair; the refresh token sent stops working. An unknown, expired or already used refresh token is 401.',
      request: { body: jsonBody(RefreshRequest) },
      responses: { 200: { description: 'A new token pair', ...tokens }, ...errorResponses(401, 422) },
    }),
    async (c) => {
      const { db } = c.get('services');
      const next = await refreshSession(db, c.req.valid('json').refreshToken, (id) => getUser(db, id));
      if (!next) throw fail.unauthorized('the refresh token is invalid, expired or was already used');
      return c.json(next, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/v1/auth/logout',
      summary: 'Revoke the current session',
      description:
        'Revokes the session whose access token is sent, so its tokens stop working; API keys are not affected. A missing or invalid token is 401.',
      ...secured('auth'),
      responses: {
        200: { description: 'Signed out', content: { 'application/json': { schema: z.object({ ok: z.literal(true) }) } } },
        ...errorResponses(401),
      },
    }),
    async (c) => {
      const principal = c.get('principal');
      if (principal.sessionId) await revokeSession(c.get('services').db, principal.sessionId);
      return c.json({ ok: true as const }, 200);
    },
  );
