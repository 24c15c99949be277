import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(() => h?.stop());

const me = (token: string) => h.request('GET', '/v1/users/me', { token });
const patchMe = (token: string, body: unknown) => h.request('PATCH', '/v1/users/me', { token, body });
const login = (email: string, password: string) => h.request('POST', '/v1/auth/login', { body: { email, password } });

describe('GET /v1/users/me', () => {
  it('shows the signed-in user with ISO timestamps, the default workspace and no deletion request', async () => {
    const user = await registerUser(h, 'Ada');
    const res = await me(user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.userId,
      email: user.email,
      name: 'Ada',
      defaultWorkspaceId: user.workspaceId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deletion: null,
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(res.body).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(res.body)).not.toContain('argon2');
  });

  it('answers the same user to one of their API keys, and 401 with a detail to no credential', async () => {
    const user = await registerUser(h);
    const key = await createApiKey(h, user);
    expect((await me(key)).body.id).toBe(user.userId);
    const anonymous = await h.request('GET', '/v1/users/me');
    expect(anonymous.status).toBe(401);
    expect(typeof anonymous.body.detail).toBe('string');
  });
});

describe('PATCH /v1/users/me', () => {
  it('changes the name and the email; the new email signs in', async () => {
    const user = await registerUser(h);
    const email = `renamed-${user.userId}@example.com`;
    const res = await patchMe(user.token, { name: 'Grace', email, currentPassword: 'correct horse battery' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Grace', email });
    expect((await login(email, 'correct horse battery')).status).toBe(200);
    expect((await login(user.email, 'correct horse battery')).status).toBe(401);
  });

  it("refuses another account's email in any case with 409 email_taken, and accepts a case change of one's own", async () => {
    const a = await registerUser(h);
    const b = await registerUser(h);
    const taken = await patchMe(a.token, { email: b.email.toUpperCase(), currentPassword: 'correct horse battery' });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toMatchObject({ code: 'email_taken' });
    expect((await me(a.token)).body.email).toBe(a.email);
    const own = await patchMe(a.token, { email: a.email.toUpperCase(), currentPassword: 'correct horse battery' });
    expect(own.status).toBe(200);
    expect(own.body.email).toBe(a.email.toUpperCase());
  });

  it('changes the password only with the right current one, signs out the other sessions and keeps the API keys', async () => {
    const user = await registerUser(h);
    const other = await login(user.email, 'correct horse battery');
    const key = await createApiKey(h, user);
    const wrong = await patchMe(user.token, { currentPassword: 'not my password', newPassword: 'a brand new passphrase' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toEqual([
      expect.objectContaining({ type: 'password_incorrect', loc: ['body', 'currentPassword'], input: null }),
    ]);

    const ok = await patchMe(user.token, { currentPassword: 'correct horse battery', newPassword: 'a brand new passphrase' });
    expect(ok.status).toBe(200);
    expect((await login(user.email, 'correct horse battery')).status).toBe(401);
    expect((await login(user.email, 'a brand new passphrase')).status).toBe(200);
    expect((await me(user.token)).status).toBe(200);
    expect((await me(other.body.accessToken)).status).toBe(401);
    // API keys are credentials of their own, revoked one by one (DELETE /v1/api-keys/{key_id}).
    expect((await me(key)).status).toBe(200);
  });

  it('refuses an email or password change with an API key (403 session_required); a key still changes the name', async () => {
    const user = await registerUser(h);
    const key = await createApiKey(h, user);
    const password = await patchMe(key, { currentPassword: 'correct horse battery', newPassword: 'tangerine orbit velvet quarry' });
    expect(password.status).toBe(403);
    expect(password.body.detail).toEqual({ code: 'session_required', message: expect.stringMatching(/session/) });
    const email = await patchMe(key, { email: `stolen-${user.userId}@example.com`, currentPassword: 'correct horse battery' });
    expect(email.status).toBe(403);
    expect(email.body.detail.code).toBe('session_required');
    const name = await patchMe(key, { name: 'Renamed by key', email: user.email });
    expect(name.status).toBe(200);
    expect(name.body).toMatchObject({ name: 'Renamed by key', email: user.email });
    expect((await login(user.email, 'correct horse battery')).status).toBe(200);
  });

  it('changes the email only with the current password: missing or wrong is a 422 entry for currentPassword', async () => {
    const user = await registerUser(h);
    const email = `moved-${user.userId}@example.com`;
    const missing = await patchMe(user.token, { email });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([expect.objectContaining({ type: 'missing', loc: ['body', 'currentPassword'] })]);
    const wrong = await patchMe(user.token, { email, currentPassword: 'not my password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toEqual([expect.objectContaining({ type: 'password_incorrect', loc: ['body', 'currentPassword'] })]);
    expect((await me(user.token)).body.email).toBe(user.email);
  });

  it('refuses a weak new password, or one with the email or name in it, with 422 password_too_weak', async () => {
    const user = await registerUser(h, 'Hypatia');
    for (const [newPassword, why] of [
      ['passwordpassword', /too easy to guess/],
      [`${user.email}!`, /email address or name/],
      ['hypatia of alexandria 415', /email address or name/],
    ] as const) {
      const res = await patchMe(user.token, { currentPassword: 'correct horse battery', newPassword });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        { type: 'password_too_weak', loc: ['body', 'newPassword'], msg: expect.stringMatching(why), input: null },
      ]);
    }
    expect((await login(user.email, 'correct horse battery')).status).toBe(200);
  });

  it('counts wrong current passwords against the sign-in throttle: 429 with Retry-After past the budget', async () => {
    const user = await registerUser(h);
    const guesses = [];
    for (let i = 0; i < 11; i++)
      guesses.push(await patchMe(user.token, { currentPassword: `guess ${i}`, newPassword: 'tangerine orbit velvet quarry' }));
    expect(guesses.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(422));
    expect(guesses[10]!.status).toBe(429);
    expect(guesses[10]!.headers.get('retry-after')).toBe('60');
    expect(guesses[10]!.body.detail).toMatchObject({ code: 'login_throttled', retryAfterSeconds: 60 });
  });

  it('validates the body: short new password, a new password without the current one, a bad email, malformed JSON', async () => {
    const user = await registerUser(h);
    const short = await patchMe(user.token, { currentPassword: 'correct horse battery', newPassword: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.detail[0]).toMatchObject({ type: 'too_small', loc: ['body', 'newPassword'], msg: expect.any(String) });
    const alone = await patchMe(user.token, { newPassword: 'a long enough passphrase' });
    expect(alone.status).toBe(422);
    expect(alone.body.detail[0].loc).toEqual(['body', 'currentPassword']);
    const email = await patchMe(user.token, { email: 'not-an-email' });
    expect(email.status).toBe(422);
    expect(email.body.detail[0].loc).toEqual(['body', 'email']);
    const broken = await h.request('PATCH', '/v1/users/me', { token: user.token, rawBody: '{"name":' });
    expect(broken.status).toBe(422);
    expect(broken.body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body'] });
  });
});

describe('account deletion request', () => {
  let user: TestUser;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    user = await registerUser(h);
    key = await createApiKey(h, user);
    otherKey = await createApiKey(h, user, user.workspaceId);
  });

  it('files a pending request with its reason, keeps the user signed in and revokes every API key at once', async () => {
    expect((await me(key)).status).toBe(200);
    const res = await h.request('DELETE', '/v1/users/me', { token: user.token, body: { reason: 'moving on' } });
    expect(res.status).toBe(200);
    expect(res.body.deletion).toEqual({ status: 'pending', requestedAt: expect.any(String), reason: 'moving on' });
    expect((await me(user.token)).body.deletion.status).toBe('pending');
    expect((await me(key)).status).toBe(401);
    expect((await me(otherKey)).status).toBe(401);
    const keys = await h.request('GET', '/v1/api-keys', { token: user.token });
    expect(keys.body).toEqual({ items: [], total: 0 });
  });

  it('returns the standing request unchanged when asked twice', async () => {
    const first = await me(user.token);
    const again = await h.request('DELETE', '/v1/users/me', { token: user.token, body: { reason: 'another reason' } });
    expect(again.status).toBe(200);
    expect(again.body.deletion).toEqual(first.body.deletion);
  });

  it('is withdrawn by restore while pending; revoked keys stay revoked', async () => {
    const res = await h.request('POST', '/v1/users/me/restore', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.deletion).toBeNull();
    expect((await me(key)).status).toBe(401);
    expect((await me(otherKey)).status).toBe(401);
  });

  it('refuses a restore with no request as 409 invalid_transition', async () => {
    const res = await h.request('POST', '/v1/users/me/restore', { token: user.token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatchObject({ code: 'invalid_transition', message: expect.any(String) });
  });

  it('takes no body at all, and then records no reason', async () => {
    const other = await registerUser(h);
    const res = await h.request('DELETE', '/v1/users/me', { token: other.token });
    expect(res.status).toBe(200);
    expect(res.body.deletion).toMatchObject({ status: 'pending', reason: null });
  });

  it('cannot be withdrawn by the user once an operator approved it', async () => {
    const other = await registerUser(h);
    await h.request('DELETE', '/v1/users/me', { token: other.token, body: {} });
    // The operator's approval happens outside the public API.
    await h.db.updateTable('users').set({ deletion_status: 'approved' }).where('id', '=', other.userId).execute();
    const res = await h.request('POST', '/v1/users/me/restore', { token: other.token });
    expect(res.status).toBe(409);
    expect(res.body.detail.code).toBe('invalid_transition');
    expect(res.body.detail.message).toMatch(/only an operator/);
    const still = await me(other.token);
    expect(still.body.deletion.status).toBe('approved');
    const again = await h.request('DELETE', '/v1/users/me', { token: other.token });
    expect(again.body.deletion).toEqual(still.body.deletion);
  });
});
