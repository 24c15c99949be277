import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const NUL = '\u0000';

/** Sends raw bytes (a body the harness' JSON.stringify would not produce) and reads the answer. */
function raw(
  method: string,
  path: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const url = new URL(path, h.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, ms: Date.now() - started });
      });
    });
    // The server may answer and close before the whole body is written: that is the point of a limit.
    req.on('error', (err) => (/EPIPE|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    req.end(body);
  });
}

describe('text PostgreSQL cannot store is refused at the edge', () => {
  it('answers a NUL in a login email with 422, without a credential', async () => {
    const res = await h.request('POST', '/v1/auth/login', { body: { email: `a${NUL}@example.com`, password: 'correct horse battery' } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'string_unstorable', loc: ['body', 'email'] });
  });

  it('answers a NUL in a registration name with 422', async () => {
    const res = await h.request('POST', '/v1/auth/register', {
      body: { email: 'nul@example.com', password: 'correct horse battery', name: `x${NUL}y` },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'name']);
  });

  it('answers a NUL in a path parameter with 404 and in a query parameter with 422', async () => {
    expect((await h.request('GET', '/v1/runs/%00', { token: user.token })).status).toBe(404);
    expect((await h.request('GET', '/v1/characters/%00', { token: user.token })).status).toBe(404);
    const query = await h.request('GET', `/v1/runs?workspaceId=${user.workspaceId}&status=%00`, { token: user.token });
    expect(query.status).toBe(422);
    expect(query.body.detail[0].loc).toEqual(['query', 'status']);
  });

  it('answers a lone surrogate in stored JSON (run intake, order variations, persona) with 422 naming where', async () => {
    const run = await raw('POST', '/v1/runs', '{"templateId":"plan-research-report","intake":{"topic":"\\ud800"}}', {
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
    });
    expect(run.status).toBe(422);
    expect(run.body.detail[0].loc).toEqual(['body', 'intake', 'topic']);
    const order = await raw(
      'POST',
      '/v1/orders',
      '{"workflowId":"plan-research-report","variationSpec":{"resolver":"list","params":{"items":[{"topic":"ok"},{"topic":"\\udfff x"}]}}}',
      { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    );
    expect(order.status).toBe(422);
    expect(order.body.detail[0].loc).toEqual(['body', 'variationSpec', 'params', 'items', 1, 'topic']);
    const key = await raw('POST', '/v1/api-keys', '{"name":"k","\\ud800":1}', {
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
    });
    expect(key.status).toBe(422);
  });
});

describe('size, depth and encoding', () => {
  it('answers a body past 2 MiB with 413 before reading it all', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 'a');
    const res = await raw('POST', '/v1/runs', big, {
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
      'content-length': String(big.length),
    });
    expect(res.status).toBe(413);
    expect(typeof res.body.detail).toBe('string');
    expect(res.ms).toBeLessThan(5_000);
  });

  it('answers a chunked body past the limit with 413 too', async () => {
    const big = `{"name":"${'x'.repeat(3 * 1024 * 1024)}"}`;
    const res = await raw('POST', '/v1/api-keys', big, {
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    expect(res.status).toBe(413);
  });

  it('answers JSON nested 100,000 deep with 422, also without a credential', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const path of ['/v1/auth/login', '/v1/runs']) {
      const res = await raw('POST', path, deep, { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ type: 'json_too_deep', loc: ['body'] });
    }
  });

  it('refuses charsets other than UTF-8 with 415', async () => {
    for (const charset of ['utf-16', 'latin1', 'iso-8859-1']) {
      const res = await raw('POST', '/v1/auth/login', Buffer.from('{"email":"a@b.c","password":"x"}', 'latin1'), {
        'content-type': `application/json; charset=${charset}`,
      });
      expect(res.status).toBe(415);
    }
    const ok = await raw('POST', '/v1/auth/login', '{"email":"nobody@example.com","password":"correct horse battery"}', {
      'content-type': 'application/json; charset=UTF-8',
    });
    expect(ok.status).toBe(401);
  });

  it('echoes at most a bounded piece of a refused field in a 422', async () => {
    const huge = 'z'.repeat(1_000_000);
    const res = await h.request('POST', '/v1/auth/register', { body: { email: huge, password: 'correct horse battery', name: 'n' } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
  });
});

describe('numbers past what the database holds', () => {
  it('answers an integer path parameter past the column range with 422', async () => {
    const character = await h.request('POST', '/v1/characters', {
      token: user.token,
      body: {
        projectId: (await h.request('POST', `/v1/workspaces/${user.workspaceId}/projects`, { token: user.token, body: { name: 'p' } })).body
          .id,
        name: 'c',
        format: 'synthetic',
      },
    });
    expect(character.status).toBe(201);
    const res = await h.request('POST', `/v1/characters/${character.body.id}/versions/2147483648:retire`, { token: user.token });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['path', 'number']);
  });

  it('answers a paging offset past the range with 422', async () => {
    const res = await h.request('GET', `/v1/runs?offset=99999999999999999999`, { token: user.token });
    expect(res.status).toBe(422);
  });
});
