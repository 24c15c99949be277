import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_TARGET_MESSAGE, egressPolicyFromEnv } from '@atelier/egress';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * Every place a caller names a URL, on a gateway and worker whose policy denies private addresses (only
 * 127.0.0.2 is named as allowed, so an endpoint can be created and then pointed elsewhere): webhook
 * endpoints and publications refuse the target when it is named, film cuts and brand fonts when they
 * fetch. A loopback address, a private one, an internal name and a name that does not resolve are all
 * told the same thing, so answers cannot map the internal network; and nothing is connected to.
 * (10.0.0.1 is a literal private address: the policy refuses it without a lookup or a socket.)
 */
let h: Harness;
let owner: TestUser;
let listener: Server;
let hits = 0;
let port: number;
let targets: string[];

beforeAll(async () => {
  h = await startHarness({ egress: egressPolicyFromEnv({}, { allowHosts: ['127.0.0.2'] }) });
  owner = await registerUser(h, 'Owner');
  listener = createServer((_req, res) => {
    hits++;
    res.writeHead(200);
    res.end('should never be asked');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  targets = [`http://127.0.0.1:${port}/`, 'http://10.0.0.1/', `http://localhost:${port}/`, 'http://nothing.invalid/'];
});
afterAll(async () => {
  await new Promise((resolve) => listener?.close(resolve));
  await h?.stop();
});

const post = (path: string, body: unknown) => h.request('POST', path, { token: owner.token, body });
const patch = (path: string, body: unknown) => h.request('PATCH', path, { token: owner.token, body });
const publicationBody = (revalidateUrl: string) => ({
  workspaceId: owner.workspaceId,
  slug: `journal-${randomBytes(3).toString('hex')}`,
  name: 'Journal',
  revalidateUrl,
  sectionPath: '/blog',
});
// Port 9 on 127.0.0.2: allowed by the policy, and never sent to here (no event of these tests is subscribed to).
const ALLOWED = 'http://127.0.0.2:9/hook';

/** The one message of a 422 refusing the url at `field`. */
function refusal(res: { status: number; body: any }, field: string, url: string): string {
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(422);
  expect(res.body.detail).toEqual([{ type: 'url_not_allowed', loc: ['body', field], msg: expect.any(String), input: url }]);
  return res.body.detail[0].msg;
}

describe('targets named for later sends', () => {
  it('refuses webhook endpoints and publications on loopback, private, internal and unresolvable hosts, at creation and on change, with one message', async () => {
    const messages = new Set<string>();
    const endpoint = await post('/v1/webhook-endpoints', { workspaceId: owner.workspaceId, url: ALLOWED, events: ['order.attention'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const publication = await post('/v1/publications', publicationBody(ALLOWED));
    expect(publication.status, JSON.stringify(publication.body)).toBe(201);
    for (const url of targets) {
      const body = { workspaceId: owner.workspaceId, url, events: ['order.attention'] };
      messages.add(refusal(await post('/v1/webhook-endpoints', body), 'url', url));
      messages.add(refusal(await patch(`/v1/webhook-endpoints/${endpoint.body.id}`, { url }), 'url', url));
      messages.add(refusal(await post('/v1/publications', publicationBody(url)), 'revalidateUrl', url));
      messages.add(refusal(await patch(`/v1/publications/${publication.body.id}`, { revalidateUrl: url }), 'revalidateUrl', url));
    }
    expect([...messages]).toEqual([REFUSED_TARGET_MESSAGE]);
    // Nothing was made or changed by the refusals.
    const endpoints = await h.request('GET', `/v1/webhook-endpoints?workspaceId=${owner.workspaceId}`, { token: owner.token });
    expect(endpoints.body.items.map((e: any) => e.url)).toEqual([ALLOWED]);
    const publications = await h.request('GET', `/v1/publications?workspaceId=${owner.workspaceId}`, { token: owner.token });
    expect(publications.body.items.map((p: any) => p.revalidateUrl)).toEqual([ALLOWED]);
    expect(hits).toBe(0);
  });
});

describe('URLs fetched now', () => {
  it('fails film-cut clips and brand fonts on those hosts with the same words', async () => {
    for (const url of targets) {
      const created = await post('/v1/runs', { templateId: 'build-film-cut', intake: { clips: [{ url, seconds: 1 }] } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const failed = await waitForRun(h, owner.token, created.body.id, undefined, 90_000);
      expect(failed.status, url).toBe('failed');
      expect(failed.errorCode).toBe('step_invalid');
      expect(failed.error.split('could not be fetched: ')[1], url).toBe(REFUSED_TARGET_MESSAGE);

      const brand = await post('/v1/brands', {
        workspaceId: owner.workspaceId,
        name: `Brand ${randomBytes(3).toString('hex')}`,
        profile: { name: 'Northwind', visual: { colors: [], fonts: [{ family: 'Face', url: `${url}face.woff2` }], logoArtifactId: null } },
      });
      expect(brand.status, JSON.stringify(brand.body)).toBe(201);
      const published = await post(`/v1/brands/${brand.body.id}/profile/publish`, undefined);
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      expect(published.body.fontCapture, url).toMatchObject({ status: 'failed', error: REFUSED_TARGET_MESSAGE });
    }
    expect(hits).toBe(0);
  });
});
