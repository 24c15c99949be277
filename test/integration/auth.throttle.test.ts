import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type HttpResult, registerUser, startHarness } from '../support/harness';

/**
 * The sign-in throttle, on two gateways over one database: `h` knows clients by their socket (no proxy
 * trusted, as by default); `proxied` believes one proxy's X-Forwarded-For, which lets each test be its own
 * client address.
 */
const THROTTLE = { accountFailures: 4, addressFailures: 10, windowSeconds: 60, backoffSeconds: 1, backoffMaxSeconds: 2 };
const PASSWORD = 'correct horse battery';

let h: Harness;
let proxied: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, loginThrottle: THROTTLE });
  proxied = await startHarness({ worker: false, databaseUrl: h.databaseUrl, loginThrottle: THROTTLE, trustedProxyHops: 1 });
});
afterAll(async () => {
  await proxied?.stop();
  await h?.stop();
});

const login = (gateway: Harness, email: string, password: string, from?: string) =>
  gateway.request('POST', '/v1/auth/login', { body: { email, password }, headers: from ? { 'x-forwarded-for': from } : {} });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectThrottled(res: HttpResult, seconds?: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  if (seconds !== undefined) expect(retryAfter).toBe(seconds);
  expect(res.body).toEqual({ detail: { code: 'login_throttled', message: expect.any(String), retryAfterSeconds: retryAfter } });
}

describe('the sign-in throttle', () => {
  it("answers a burst of wrong passwords with 429 and Retry-After once the account's budget is spent", async () => {
    const user = await registerUser(h);
    const burst = await Promise.all(Array.from({ length: 12 }, () => login(proxied, user.email, 'not the password', '198.51.100.1')));
    const statuses = burst.map((r) => r.status).sort();
    // Attempts are counted before the password is checked, so even a concurrent burst gets exactly the budget.
    expect(statuses).toEqual([...Array(4).fill(401), ...Array(8).fill(429)]);
    for (const res of burst.filter((r) => r.status === 429)) expectThrottled(res);
    // While blocked, not even the right password is checked: a guesser learns nothing.
    expectThrottled(await login(proxied, user.email, PASSWORD, '198.51.100.1'));
  });

  it('lets the right password in again once the block ends; blocks grow up to their cap and a success starts the count over', async () => {
    const user = await registerUser(h);
    const from = '198.51.100.2';
    for (let i = 0; i < 4; i++) expect((await login(proxied, user.email, 'not the password', from)).status).toBe(401);
    expectThrottled(await login(proxied, user.email, PASSWORD, from), 1);
    await sleep(1_100);
    // One more guess after a block is answered, and earns twice the block; the next stays at the 2 s cap.
    expect((await login(proxied, user.email, 'still not it', from)).status).toBe(401);
    expectThrottled(await login(proxied, user.email, PASSWORD, from), 2);
    await sleep(2_100);
    expect((await login(proxied, user.email, 'still not it', from)).status).toBe(401);
    expectThrottled(await login(proxied, user.email, PASSWORD, from), 2);
    await sleep(2_100);
    expect((await login(proxied, user.email, PASSWORD, from)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(proxied, user.email, 'not the password', from)).status).toBe(401);
  });

  it('shares one count between two gateways on one database', async () => {
    const user = await registerUser(h);
    expect((await login(h, user.email, 'wrong one')).status).toBe(401);
    expect((await login(proxied, user.email, 'wrong two', '198.51.100.3')).status).toBe(401);
    expect((await login(h, user.email, 'wrong three')).status).toBe(401);
    expect((await login(proxied, user.email, 'wrong four', '198.51.100.3')).status).toBe(401);
    // Neither gateway saw four failures itself; both refuse now.
    expectThrottled(await login(h, user.email, PASSWORD));
    expectThrottled(await login(proxied, user.email, PASSWORD, '198.51.100.3'));
  });

  it('does not block another account from the same address', async () => {
    const victim = await registerUser(h);
    const other = await registerUser(h);
    const from = '198.51.100.4';
    for (let i = 0; i < 4; i++) await login(proxied, victim.email, 'not the password', from);
    expectThrottled(await login(proxied, victim.email, PASSWORD, from));
    expect((await login(proxied, other.email, PASSWORD, from)).status).toBe(200);
    expect((await login(proxied, other.email, 'a typo', from)).status).toBe(401);
  });

  it('throttles an address guessing across accounts, whatever X-Forwarded-For says when no proxy is trusted', async () => {
    const user = await registerUser(h);
    const statuses: number[] = [];
    // Each guess names a new account and claims a new address; the gateway trusts no proxy, so it is one client.
    for (let i = 0; i < THROTTLE.addressFailures + 1 && !statuses.includes(429); i++) {
      statuses.push((await login(h, `nobody-${i}-${user.userId}@example.com`, 'a guess', `203.0.113.${i}`)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expectThrottled(await login(h, user.email, PASSWORD, '203.0.113.200'));
    // Behind a trusted proxy the forwarded address is the client: another one is not blocked.
    expect((await login(proxied, user.email, PASSWORD, '203.0.113.201')).status).toBe(200);
  });

  it('documents the 429, its Retry-After header and body on the login route', async () => {
    const doc = (await h.request('GET', '/openapi.json')).body;
    const refused = doc.paths['/v1/auth/login'].post.responses['429'];
    expect(refused.headers['Retry-After'].schema).toEqual({ type: 'integer' });
    expect(refused.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LoginThrottled' });
    expect(doc.components.schemas.LoginThrottled.properties.detail.properties.code).toMatchObject({ enum: ['login_throttled'] });
  });
});
