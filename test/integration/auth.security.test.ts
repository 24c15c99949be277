import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerUser, startHarness } from '../support/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(() => h?.stop());

const PASSWORD = 'correct horse battery';
const me = (token: string) => h.request('GET', '/v1/users/me', { token });
const refresh = (refreshToken: string) => h.request('POST', '/v1/auth/refresh', { body: { refreshToken } });

describe('registration and sign-in', () => {
  it('registers with 201 TokenResponse, opaque tokens and a personal workspace owned by the user', async () => {
    const email = `reg-${Date.now()}@example.com`;
    const res = await h.request('POST', '/v1/auth/register', { body: { email, password: PASSWORD, name: 'Reg' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'bearer',
      expiresIn: 3600,
      user: { id: expect.any(String), email, name: 'Reg' },
    });
    expect(res.body.accessToken).not.toBe(res.body.refreshToken);
    expect(res.body.accessToken.length).toBeGreaterThanOrEqual(40);
    const stored = await h.db.selectFrom('auth_tokens').select('token_hash').execute();
    expect(stored.map((t) => t.token_hash)).not.toContain(res.body.accessToken);
    const user = await h.db.selectFrom('users').select('password_hash').where('id', '=', res.body.user.id).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    const workspaces = await h.request('GET', '/v1/workspaces', { token: res.body.accessToken });
    expect(workspaces.body.items).toEqual([expect.objectContaining({ personal: true, role: 'owner' })]);
  });

  it('signs in with the right password, whatever the case of the email', async () => {
    const user = await registerUser(h);
    const res = await h.request('POST', '/v1/auth/login', { body: { email: user.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: 'bearer', expiresIn: 3600, user: { id: user.userId } });
    expect((await me(res.body.accessToken)).status).toBe(200);
  });

  it('answers a wrong email and a wrong password with the same 401 body', async () => {
    const user = await registerUser(h);
    const wrongPassword = await h.request('POST', '/v1/auth/login', { body: { email: user.email, password: 'not the password' } });
    const wrongEmail = await h.request('POST', '/v1/auth/login', { body: { email: `nobody-${user.email}`, password: PASSWORD } });
    expect(wrongPassword.status).toBe(401);
    expect(wrongEmail.status).toBe(401);
    expect(wrongEmail.body).toEqual(wrongPassword.body);
    expect(typeof wrongEmail.body.detail).toBe('string');
  });
});

describe('refresh tokens', () => {
  it('rotate: the new pair works, the previous access token and the used refresh token do not', async () => {
    const user = await registerUser(h);
    const next = await refresh(user.refreshToken);
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ tokenType: 'bearer', expiresIn: 3600, user: { id: user.userId } });
    expect(next.body.refreshToken).not.toBe(user.refreshToken);
    expect((await me(next.body.accessToken)).status).toBe(200);
    expect((await me(user.token)).status).toBe(401);
    const reused = await refresh(user.refreshToken);
    expect(reused.status).toBe(401);
    expect(reused.body).toHaveProperty('detail');
  });

  it('revoke the whole family when a used one is presented again', async () => {
    const user = await registerUser(h);
    const second = await refresh(user.refreshToken);
    const third = await refresh(second.body.refreshToken);
    expect(third.status).toBe(200);
    expect((await me(third.body.accessToken)).status).toBe(200);

    expect((await refresh(user.refreshToken)).status).toBe(401);
    expect((await me(third.body.accessToken)).status).toBe(401);
    expect((await refresh(third.body.refreshToken)).status).toBe(401);
  });

  it('leave other sessions of the same user alone when one family is revoked', async () => {
    const user = await registerUser(h);
    const other = await h.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    await refresh(user.refreshToken);
    await refresh(user.refreshToken);
    expect((await me(other.body.accessToken)).status).toBe(200);
  });

  it('refuse an unknown token with 401 and a missing one with 422', async () => {
    expect((await refresh('not-a-real-token')).status).toBe(401);
    const missing = await h.request('POST', '/v1/auth/refresh', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'refreshToken'] });
  });
});

describe('logout', () => {
  it('kills that access token at once and its refresh token too, and leaves other sessions alone', async () => {
    const user = await registerUser(h);
    const other = await h.request('POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    const out = await h.request('POST', '/v1/auth/logout', { token: user.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    expect((await me(user.token)).status).toBe(401);
    expect((await refresh(user.refreshToken)).status).toBe(401);
    expect((await me(other.body.accessToken)).status).toBe(200);
    expect((await h.request('POST', '/v1/auth/logout', { token: user.token })).status).toBe(401);
  });
});
