import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type UserRow, getUser, requestAccountDeletion, revokeOtherSessions, updateUser, withdrawAccountDeletion } from '@atelier/db';
import { AccountDeletionRequest, User, UserUpdateRequest } from '@atelier/contracts/users';
import { hashPassword, verifyPassword } from '../auth/secrets.js';
import { judgePassword } from '../auth/password-strength.js';
import { passwordUnderThrottle } from '../auth/throttled-sign-in.js';
import { requestAddress } from '../http/client-address.js';
import { fail, validationHook } from '../errors.js';
import { kept } from '../kept/index.js';
import { requireAccountScope } from '../access.js';
import type { AppEnv } from '../services.js';
import { json } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentUser } from '../presenters/user.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('users');

/**
 * The current password, checked under the sign-in throttle: a stolen session must not become a way to
 * guess the password at full speed. A wrong one is a 422 entry (not 401, which would say the session is bad).
 */
async function requireCurrentPassword(c: Context<AppEnv>, user: UserRow, currentPassword: string | undefined): Promise<void> {
  if (currentPassword === undefined) {
    throw fail.validation([
      {
        type: 'missing',
        loc: ['body', 'currentPassword'],
        msg: 'currentPassword is required to change the email or the password',
        input: null,
      },
    ]);
  }
  if (
    !(await passwordUnderThrottle(c.get('services'), { email: user.email, address: requestAddress(c) }, () =>
      verifyPassword(user.password_hash, currentPassword),
    ))
  ) {
    throw fail.validation([
      { type: 'password_incorrect', loc: ['body', 'currentPassword'], msg: 'The current password is not correct', input: null },
    ]);
  }
}

// A principal always names a user that exists (users are never hard-deleted by the API); this guards the purge.
const gone = () => fail.unauthorized('this account no longer exists');

export const userRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('GET /v1/users/me', {}, { 200: User }), async (c) => {
    const { db } = c.get('services');
    const user = await getUser(db, c.get('principal').userId);
    if (!user) throw gone();
    return c.json(await presentUser(db, user), 200);
  })
  .openapi(operation('PATCH /v1/users/me', { body: UserUpdateRequest }, { 200: User }), async (c) => {
    requireAccountScope(callerOf(c));
    const body = c.req.valid('json');
    const { db } = c.get('services');
    const principal = c.get('principal');
    const user = await getUser(db, principal.userId);
    if (!user) throw gone();
    // Resending the email one already has (a client saving the whole profile) changes nothing and needs nothing.
    const email = body.email !== undefined && body.email !== user.email ? body.email : undefined;
    if (email !== undefined || body.newPassword !== undefined) {
      // A leaked key must not be enough to take the account over: the sign-in credentials need the person.
      if (principal.via !== 'session') {
        throw fail.code('session_required', {
          message: 'changing the sign-in email or the password needs a signed-in session and the current password, not an API key',
        });
      }
      await requireCurrentPassword(c, user, body.currentPassword);
    }
    let passwordHash: string | undefined;
    if (body.newPassword !== undefined) {
      const verdict = judgePassword(body.newPassword, { email: email ?? user.email, name: body.name ?? user.name });
      if (!verdict.ok) throw fail.weakPassword('newPassword', verdict);
      passwordHash = await hashPassword(body.newPassword);
    }
    const result = await updateUser(db, user.id, { name: body.name, email, passwordHash });
    if (!result.ok) {
      if (result.reason === 'email_taken') throw fail.code('email_taken', { message: 'an account with this email already exists' });
      throw gone();
    }
    // A new password signs out every other session (the caller's stays); API keys are credentials the user revokes explicitly.
    if (passwordHash) await revokeOtherSessions(db, user.id, principal.sessionId);
    return c.json(await presentUser(db, result.user), 200);
  })
  .openapi(operation('DELETE /v1/users/me', { body: { ...json(AccountDeletionRequest), required: false } }, { 200: User }), async (c) => {
    requireAccountScope(callerOf(c));
    const { db } = c.get('services');
    const body = c.req.valid('json');
    const user = await requestAccountDeletion(db, c.get('principal').userId, body.reason || null);
    kept(c.get('services')).apiKeys.forget();
    if (!user) throw gone();
    return c.json(await presentUser(db, user), 200);
  })
  .openapi(operation('POST /v1/users/me/restore', {}, { 200: User }), async (c) => {
    requireAccountScope(callerOf(c));
    const { db } = c.get('services');
    const result = await withdrawAccountDeletion(db, c.get('principal').userId);
    if (result.outcome === 'no_request') throw fail.invalidTransition('there is no account deletion request to withdraw', { status: null });
    if (result.outcome === 'approved') {
      throw fail.invalidTransition('the deletion request was approved and the purge is scheduled; only an operator can reverse it', {
        status: 'approved',
      });
    }
    if (result.outcome === 'not_found') throw gone();
    return c.json(await presentUser(db, result.user), 200);
  });
