import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const register = (body: unknown) => h.request('POST', '/v1/auth/register', { body });

describe('registration refuses bad input', () => {
  it('answers a password under 12 characters with a 422 entry for body.password, never echoing the password', async () => {
    const res = await register({ email: 'short@example.com', password: 'elevenchars', name: 'Short' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ type: 'too_small', loc: ['body', 'password'], msg: expect.any(String), input: '(not shown)' }]);
    // Nor inside an echoed object (a body refused as a whole).
    const whole = await h.request('POST', '/v1/auth/register', { rawBody: JSON.stringify([{ password: 'elevenchars' }]) });
    expect(whole.status).toBe(422);
    expect(JSON.stringify(whole.body)).not.toContain('elevenchars');
  });

  it('reports every missing field at once', async () => {
    const res = await register({});
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => [d.type, d.loc.join('.')])).toEqual(
      expect.arrayContaining([
        ['missing', 'body.email'],
        ['missing', 'body.password'],
        ['missing', 'body.name'],
      ]),
    );
    for (const entry of res.body.detail) expect(Object.keys(entry).sort()).toEqual(['input', 'loc', 'msg', 'type']);
  });

  it.each([
    ['a doubled common word', 'passwordpassword', /too easy to guess/],
    ['a run of digits', '123456789012', /commonly used/],
    ['twelve spaces', ' '.repeat(12), /too easy to guess/],
    ['the email itself', 'weak-mail@example.com', /email address or name/],
    ['the name', 'Rosalind Franklin 1920!', /email address or name/],
  ])('refuses %s as a password with a 422 password_too_weak entry that says why, and creates no account', async (_, password, why) => {
    const email = 'weak-mail@example.com';
    const res = await register({ email, password, name: 'Rosalind Franklin' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { type: 'password_too_weak', loc: ['body', 'password'], msg: expect.stringMatching(why), input: null },
    ]);
    expect(await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('accepts a strong passphrase', async () => {
    const res = await register({ email: 'strong@example.com', password: 'tangerine orbit velvet quarry', name: 'Strong' });
    expect(res.status).toBe(201);
  });

  it('answers an email already registered, in any case, with 409 email_taken', async () => {
    const res = await register({ email: user.email.toUpperCase(), password: 'correct horse battery', name: 'Dup' });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatchObject({ code: 'email_taken' });
  });
});

describe('malformed requests are 422, never 500', () => {
  it.each([
    ['POST', '/v1/auth/register'],
    ['POST', '/v1/auth/login'],
    ['POST', '/v1/auth/refresh'],
    ['POST', '/v1/api-keys'],
    ['POST', '/v1/workspaces'],
    ['PATCH', '/v1/users/me'],
  ])('%s %s with broken JSON', async (method, path) => {
    const res = await h.request(method, path, { token: user.token, rawBody: '{"oops": ' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ type: 'json_invalid', loc: ['body'] })]);
  });

  it('answers a JSON array where an object belongs with a 422 entry', async () => {
    const res = await h.request('POST', '/v1/auth/login', { rawBody: '[1, 2]' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body']);
  });
});

describe('paging parameters are bounded', () => {
  const lists = ['/v1/workspaces', '/v1/api-keys', '/v1/workspaces/{ws}/projects', '/v1/workspaces/{ws}/members'];

  it.each(lists)('%s refuses limit=0, limit=101 and offset=-1 naming the parameter', async (template) => {
    const path = template.replace('{ws}', user.workspaceId);
    for (const [query, loc] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['offset=-1', 'offset'],
      ['limit=ten', 'limit'],
    ] as const) {
      const res = await h.request('GET', `${path}?${query}`, { token: user.token });
      expect(res.status, `${path}?${query}`).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', loc], msg: expect.any(String) });
    }
    expect((await h.request('GET', `${path}?limit=100&offset=0`, { token: user.token })).status).toBe(200);
  });
});

describe('credentials', () => {
  const guarded = ['/v1/users/me', '/v1/workspaces', '/v1/api-keys', '/v1/runs'];

  it.each(guarded)('%s answers 401 with a detail to a missing, garbage or malformed bearer', async (path) => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer garbage' },
      { authorization: 'Bearer atl_notarealkey' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
    ];
    for (const headers of attempts) {
      const res = await h.request('GET', path, { headers });
      expect(res.status).toBe(401);
      expect(res.body).toHaveProperty('detail');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('every error answered here has a top-level detail', async () => {
    const samples = await Promise.all([
      h.request('GET', '/v1/workspaces/00000000-0000-4000-8000-000000000000', { token: user.token }),
      h.request('POST', '/v1/users/me/restore', { token: user.token }),
      h.request('GET', '/v1/api-keys/00000000-0000-4000-8000-000000000000', { token: user.token }),
      h.request('POST', '/v1/auth/login', { body: { email: 'x@example.com' } }),
    ]);
    expect(samples.map((s) => s.status)).toEqual([404, 409, 404, 422]);
    for (const s of samples) expect(s.body).toHaveProperty('detail');
  });
});
