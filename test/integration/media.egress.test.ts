import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_TARGET_MESSAGE, egressPolicyFromEnv } from '@atelier/egress';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * A worker on the production egress policy (deny private) asked to cut clips from this machine: the run
 * fails on the policy, before anything is fetched, with a message that says what was refused and nothing
 * of the worker's insides (no scratch paths, no ffmpeg diagnostics).
 */
let h: Harness;
let user: TestUser;
let clipHost: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  h = await startHarness({ egress: egressPolicyFromEnv({}) });
  user = await registerUser(h);
  clipHost = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'video/mp4' });
    res.end('not a movie either');
  });
  await new Promise<void>((resolve) => clipHost.listen(0, '127.0.0.1', resolve));
  port = (clipHost.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => clipHost?.close(resolve));
  await h?.stop();
});

async function cut(url: string) {
  const created = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: { templateId: 'build-film-cut', intake: { clips: [{ url, seconds: 1 }] } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id, undefined, 90_000);
}

describe('film cuts under the production egress policy', () => {
  it('refuses clips on loopback, by address or by name, and the metadata address, with a clean message', async () => {
    const refused = REFUSED_TARGET_MESSAGE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const cases: Array<[string, RegExp]> = [
      [
        `http://127.0.0.1:${port}/x`,
        new RegExp(`^step \\S+: tool buildFilmCut clip 0 \\(http://127\\.0\\.0\\.1:\\d+/x\\) could not be fetched: ${refused}$`),
      ],
      [`http://localhost:${port}/x`, new RegExp(`clip 0 .* could not be fetched: ${refused}$`)],
      ['http://169.254.169.254/latest/meta-data/', new RegExp(`could not be fetched: ${refused}$`)],
    ];
    for (const [url, message] of cases) {
      const failed = await cut(url);
      expect(failed.status, url).toBe('failed');
      expect(failed.errorCode).toBe('step_invalid');
      expect(failed.error).toMatch(message);
      expect(failed.error).not.toMatch(/atelier-video-|clip-0|@ 0x|\/tmp\//);
    }
    expect(hits).toBe(0);
  });
});
