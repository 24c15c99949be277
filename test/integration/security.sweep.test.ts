import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';
import { type OpenApiDoc, type Operation, jsonBodySchema, operations, sample } from '../support/openapi-sweep';
import { notesWorkflow } from '../support/workflows';

/**
 * Every secured operation of the live `/openapi.json`, swept twice: without a credential (401), and with a
 * stranger's credentials aimed at one of each resource of another tenant (404 — a foreign id is
 * indistinguishable from a random one; 403 only where the contract says so). Generated from the document,
 * so a new secured operation is swept the day it appears, and one whose path ids the map below cannot fill
 * fails the suite instead of dropping out of coverage.
 */

/** Operations that need no credential. Anything else without a security requirement fails the sweep. */
const PUBLIC_OPERATIONS = new Set([
  'POST /v1/auth/register',
  'POST /v1/auth/login',
  'POST /v1/auth/refresh',
  'GET /v1/catalog/workflows',
  'GET /v1/catalog/workflows/{id}',
  // Signed, expiring file links: the signature in the query is the credential.
  'GET /v1/files/{key}',
]);
const PUBLIC_PREFIXES = ['/v1/publications/public/'];
const isPublicListed = (o: Operation) =>
  PUBLIC_OPERATIONS.has(`${o.method} ${o.path}`) || PUBLIC_PREFIXES.some((p) => o.path.startsWith(p));

/** Operations for platform operators only: a non-operator is refused with 403 operator_required whatever the id. */
const OPERATOR_ONLY = (o: Operation) => o.path.startsWith('/v1/ops/');

let h: Harness;
let owner: TestUser;
let stranger: TestUser;
let strangerKey: string;
let strangerBoundKey: string;
let doc: OpenApiDoc;

/** One of each of the owner's resources. */
const A: Record<string, string> = {};
const WORKFLOW_ID = `plan-sweep-${randomBytes(3).toString('hex')}`;

const draft = (id: string, version = '2026.11.01') =>
  notesWorkflow(id, { name: 'Sweep notes', version, budgetPolicy: { perRunCapUsd: 0.1 } });

/** Path parameter → the owner's id. Keyed by name, with the few names that mean different things per path resolved by path. */
function pathId(param: string, path: string): string | undefined {
  switch (param) {
    case 'workspace_id':
      return A.workspace;
    case 'project_id':
      return path.startsWith('/v1/brands/') ? A.brand : A.project;
    case 'run_id':
      return path.startsWith('/v1/queue/') ? A.reviewRun : A.run;
    case 'key_id':
      return A.apiKey;
    case 'artifact_id':
      return A.artifact;
    case 'order_id':
      return A.order;
    case 'budget_id':
      return A.budget;
    case 'user_id':
      return A.user;
    case 'id':
      return path.startsWith('/v1/workflows/') ? A.workflow : undefined;
    case 'subject_id':
      return A.subject;
    case 'consent_id':
      return A.consent;
    case 'character_id':
      return A.character;
    case 'item_id':
      return A.reference;
    case 'number':
      return '1';
    case 'binding_id':
      return A.binding;
    case 'client_id':
      return A.client;
    case 'contact_id':
      return A.contact;
    case 'campaign_id':
      return A.campaign;
    case 'publication_id':
      return A.publication;
    case 'document_id':
      return A.document;
    case 'endpoint_id':
      return A.webhookEndpoint;
    default:
      return undefined;
  }
}

/** Body and query properties that name a resource: filled with the owner's ids so the request reaches that resource's access check. */
const refsByName = () => ({
  workspaceId: A.workspace,
  projectId: A.project,
  subjectId: A.subject,
  artifactId: A.artifact,
  runId: A.run,
  parentOrderId: A.order,
  clientId: A.client,
});

/** Bodies the schema alone cannot make meaningful (free-form definitions, resolver params, ids of a particular kind). */
function bodyOverride(o: Operation): unknown {
  switch (`${o.method} ${o.path}`) {
    case 'POST /v1/runs':
      return { templateId: 'plan-research-report', intake: { topic: 'x' }, workspaceId: A.workspace };
    case 'POST /v1/orders':
      return {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }] } },
        workspaceId: A.workspace,
      };
    case 'POST /v1/workflows':
      return { workspaceId: A.workspace, definition: draft(`plan-sweep-b-${randomBytes(2).toString('hex')}`) };
    case 'POST /v1/workflows/dry-run':
      return { ...draft('plan-sweep-dry'), intake: { topic: 'x' }, workspaceId: A.workspace };
    case 'POST /v1/workflows/estimate':
      return { id: A.workflow, runtimeSteps: draft(A.workflow!).runtimeSteps, providers: draft(A.workflow!).providers };
    case 'POST /v1/workflows/{id}/publish':
      return { version: '2026.11.01', visibility: 'internal' };
    case 'POST /v1/workflows/{id}/deprecate':
      return { supersededById: 'plan-research-report' };
    case 'POST /v1/queue/decisions':
      return { decisions: [{ runId: A.reviewRun, decision: 'approve' }] };
    case 'POST /v1/queue/{run_id}/decision':
      return { decision: 'approve' };
    case 'POST /v1/campaigns':
      return { projectId: A.brand, name: 'x', brief: { objective: 'x' } };
    case 'POST /v1/brands':
      return { workspaceId: A.workspace, name: 'x' };
    case 'POST /v1/brands/{project_id}/import':
      return { notes: 'x' };
    case 'POST /v1/brands/{project_id}/profile/confirm':
      return { runId: A.run };
    case 'POST /v1/publications':
      return {
        workspaceId: A.workspace,
        slug: `sweep-${randomBytes(3).toString('hex')}`,
        name: 'x',
        revalidateUrl: 'http://127.0.0.1:9/revalidate',
        sectionPath: '/x',
      };
    case 'PATCH /v1/publications/{publication_id}':
      return { name: 'x' };
    case 'POST /v1/webhook-endpoints':
      return { workspaceId: A.workspace, url: 'http://127.0.0.1:9/hooks', events: ['order.attention'] };
    case 'PATCH /v1/webhook-endpoints/{endpoint_id}':
      return { description: 'x' };
    case 'POST /v1/budgets':
      return { scope: 'workspace', workspaceId: A.workspace, limitUsd: 1, period: 'month', enforcementMode: 'hard_stop' };
    case 'POST /v1/characters':
      return { projectId: A.project, name: 'x', format: 'synthetic' };
    case 'POST /v1/characters/{character_id}/references':
      return { role: 'portrait', artifactId: A.visualArtifact };
    case 'POST /v1/characters/{character_id}/versions':
      return { subjectId: A.subject };
    case 'POST /v1/workspaces/{workspace_id}/members':
      return { email: stranger.email, role: 'owner' };
    case 'PATCH /v1/workspaces/{workspace_id}/members/{user_id}':
      return { role: 'member' };
    case 'POST /v1/orders/{order_id}/retry-failed':
      return { all: true };
    case 'POST /v1/api-keys':
      return { name: 'x', workspaceId: A.workspace };
    default:
      return undefined;
  }
}

let uniq = 0;
function bodyFor(o: Operation): unknown {
  const override = bodyOverride(o);
  if (override !== undefined) return override;
  const body = jsonBodySchema(doc, o.op);
  if (!body) return undefined;
  return sample(doc, body.schema, { byName: refsByName(), unique: () => `${Date.now()}${uniq++}` });
}

function fillPath(o: Operation, ids: (param: string, path: string) => string | undefined): string | undefined {
  let out = o.path;
  for (const p of o.pathParams) {
    const id = ids(p, o.path);
    if (id === undefined) return undefined;
    out = out.replace(`{${p}}`, encodeURIComponent(id));
  }
  return out;
}

interface Answer {
  status: number;
  text: string;
}

/** A request that never hangs on a stream: the body is read for at most a few seconds. */
async function send(method: string, path: string, token: string | undefined, body: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 8_000);
  try {
    const res = await fetch(`${h.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: ctrl.signal,
    });
    let text = '';
    try {
      text = await res.text();
    } catch {
      text = '<stream cut after 8 s>';
    }
    return { status: res.status, text };
  } catch (err) {
    return { status: -1, text: `request failed: ${(err as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The owner's ids that appear in `text` although the request did not send them. */
function leakedIds(text: string, sent: string): string[] {
  const ours = [...new Set([...Object.values(A), owner.email])].filter((v) => v && v.length > 3);
  return ours.filter((id) => text.includes(id) && !sent.includes(id));
}

/**
 * Where a foreign id only labels the request (nothing of it is read or shown), the answer may be what a
 * random id of the same kind gets instead of a 404: the estimate's draft id (only used to refuse estimating a
 * published workflow of the caller's own workspace) and the client filter of a project list.
 */
const ANSWERED_AS_UNKNOWN = new Set(['POST /v1/workflows/estimate', 'GET /v1/workspaces/{workspace_id}/projects?clientId']);

/** The same text with every owner id swapped for a random id of the same shape. */
function withRandomIds(text: string): string {
  let out = text;
  for (const id of Object.values(A)) {
    if (!id || id.length < 4) continue;
    const fresh = /^[0-9a-f-]{36}$/.test(id) ? randomUUID() : `${id.split('-')[0]}-nope-${randomBytes(4).toString('hex')}`;
    out = out.split(id).join(fresh);
  }
  return out;
}

/** Whether the owner's id got exactly the answer a random id gets (ids the caller sent blanked out). */
async function answeredAsUnknown(method: string, url: string, token: string, body: unknown, seen: Answer): Promise<boolean> {
  const randomUrl = withRandomIds(url);
  const randomBody = body === undefined ? undefined : JSON.parse(withRandomIds(JSON.stringify(body)));
  const other = await send(method, randomUrl, token, randomBody);
  const blank = (t: string) => {
    let out = t;
    for (const id of Object.values(A)) if (id && id.length >= 4) out = out.split(id).join('<id>');
    return out.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>').replace(/[a-z]+-nope-[0-9a-f]{8}/g, '<id>');
  };
  return other.status === seen.status && blank(other.text) === blank(seen.text);
}

const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const byMethod = (a: Operation, b: Operation) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method) || a.path.localeCompare(b.path);

beforeAll(async () => {
  h = await startHarness();
  owner = await registerUser(h, 'Owner');
  stranger = await registerUser(h, 'Stranger');
  strangerKey = await createApiKey(h, stranger);
  strangerBoundKey = await createApiKey(h, stranger, stranger.workspaceId);
  const fetched = await h.request('GET', '/openapi.json');
  expect(fetched.status).toBe(200);
  doc = fetched.body;

  const post = async (path: string, body?: unknown, expected = 201) => {
    const res = await h.request('POST', path, { token: owner.token, body });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(expected);
    return res.body;
  };
  A.workspace = owner.workspaceId;
  A.user = owner.userId;
  A.project = (await post(`/v1/workspaces/${A.workspace}/projects`, { name: 'Sweep' })).id;
  A.apiKey = (await post('/v1/api-keys', { name: 'owner key' })).id;

  const run = await post('/v1/runs', { templateId: 'plan-research-report', intake: { topic: 'x' }, projectId: A.project });
  A.run = run.id;
  const review = await post('/v1/runs', { templateId: 'generate-product-shot', intake: { product: 'a mug' } });
  A.reviewRun = review.id;
  A.order = (
    await post('/v1/orders', {
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }] } },
    })
  ).id;
  A.budget = (
    await post('/v1/budgets', { scope: 'workspace', workspaceId: A.workspace, limitUsd: 50, period: 'month', enforcementMode: 'hard_stop' })
  ).id;
  A.client = (await post(`/v1/workspaces/${A.workspace}/clients`, { name: `Client ${randomBytes(2).toString('hex')}` })).id;
  A.contact = (await post(`/v1/clients/${A.client}/contacts`, { name: 'Pat', email: 'pat@example.com' })).id;

  A.subject = (
    await post(`/v1/workspaces/${A.workspace}/subjects`, { displayName: 'Ada Model', attestations: { adult: true, notPolitical: true } })
  ).id;
  A.consent = (
    await post(`/v1/subjects/${A.subject}/consents`, {
      grantor: 'subject',
      coversLikeness: true,
      coversVoice: false,
      scope: { uses: ['advertising'], media: ['image'], channels: ['*'], territories: ['*'] },
      startsOn: '2026-01-01',
      endsOn: '2030-12-31',
      evidenceKind: 'signed_release',
      evidenceSha256: randomBytes(32).toString('hex'),
    })
  ).id;
  await post(`/v1/likeness-consents/${A.consent}:activate`, {}, 200);
  A.visualArtifact = `artifact-${randomBytes(8).toString('hex')}`;
  await h.db
    .insertInto('artifacts')
    .values({
      id: A.visualArtifact,
      workspace_id: A.workspace,
      title: 'portrait',
      status: 'ready',
      artifact_class: 'visual',
      artifact_type: 'illustration',
      content: JSON.stringify({ type: 'image' }),
      qa: JSON.stringify({ status: 'passed', checks: [] }),
    } as never)
    .execute();
  A.character = (await post('/v1/characters', { projectId: A.project, name: 'Ada', format: 'likeness', persona: { summary: 'warm' } })).id;
  const withRef = await post(`/v1/characters/${A.character}/references`, { role: 'portrait', artifactId: A.visualArtifact });
  A.reference = withRef.references[0].id;
  await post(`/v1/characters/${A.character}/versions`, { subjectId: A.subject, note: 'first' });
  A.binding = (
    await post(`/v1/characters/${A.character}/versions/1/bindings`, {
      provider: 'local',
      assetKind: 'likeness',
      assetId: 'asset-1',
      providerConsentStatus: 'accepted',
    })
  ).id;

  A.workflow = (await post('/v1/workflows', { definition: draft(WORKFLOW_ID) })).id;
  expect(A.workflow).toBe(WORKFLOW_ID);
  A.brand = (await post('/v1/brands', { workspaceId: A.workspace, name: 'Northwind', profile: { audience: 'Home brewers' } })).id;
  await post(`/v1/brands/${A.brand}/profile/publish`, undefined, 200);
  A.campaign = (await post('/v1/campaigns', { projectId: A.brand, name: 'Spring', brief: { objective: 'Launch' } })).id;
  A.publication = (
    await post('/v1/publications', {
      workspaceId: A.workspace,
      slug: `sweep-${randomBytes(3).toString('hex')}`,
      name: 'Journal',
      revalidateUrl: 'http://127.0.0.1:9/revalidate',
      sectionPath: '/blog',
    })
  ).id;
  A.document = (await post(`/v1/publications/${A.publication}/documents`, { slug: 'first', title: 'First', body: 'x', categories: [] })).id;
  A.webhookEndpoint = (
    await post('/v1/webhook-endpoints', { workspaceId: A.workspace, url: 'http://127.0.0.1:9/hooks', events: ['order.attention'] })
  ).id;

  A.artifact = (await waitForRun(h, owner.token, A.run!)).artifactId;
  expect(A.artifact, 'the owner run left an artifact').toBeTruthy();
  const reviewed = await waitForRun(h, owner.token, A.reviewRun!);
  expect(reviewed.status).toBe('review');
}, 180_000);
afterAll(() => h?.stop());

describe('the security sweep over /openapi.json', () => {
  it('lists every operation without a security requirement explicitly as public', () => {
    const unlisted = operations(doc).filter((o) => !o.secured && !isPublicListed(o));
    expect(
      unlisted.map((o) => `${o.method} ${o.path}`),
      'unsecured operations missing from PUBLIC_OPERATIONS',
    ).toEqual([]);
    const listedButSecured = operations(doc).filter((o) => o.secured && PUBLIC_OPERATIONS.has(`${o.method} ${o.path}`));
    expect(
      listedButSecured.map((o) => `${o.method} ${o.path}`),
      'PUBLIC_OPERATIONS names secured operations',
    ).toEqual([]);
  });

  it('can fill the path ids of every secured operation (coverage cannot drop silently)', () => {
    const unfilled = operations(doc)
      .filter((o) => o.secured)
      .filter((o) => fillPath(o, pathId) === undefined)
      .map((o) => `${o.method} ${o.path} (${o.pathParams.filter((p) => pathId(p, o.path) === undefined).join(', ')})`);
    expect(unfilled, 'secured operations with path parameters the id map cannot fill: extend pathId()').toEqual([]);
  });

  it('answers every secured operation 401 without a credential and with a forged one', async () => {
    const failures: string[] = [];
    const secured = operations(doc)
      .filter((o) => o.secured)
      .sort(byMethod);
    expect(secured.length).toBeGreaterThan(50);
    for (const o of secured) {
      const path = fillPath(o, pathId) ?? o.path;
      const body = bodyFor(o);
      for (const [label, token] of [
        ['no credential', undefined],
        ['forged bearer', `atk_${randomBytes(24).toString('hex')}`],
      ] as const) {
        const res = await send(o.method, path, token, body);
        if (res.status !== 401) failures.push(`${o.method} ${o.path} [${label}] → ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it("answers a stranger's credentials on the owner's ids with 404 (403 where the contract says), never 2xx or 5xx, and leaks no owner id", async () => {
    const failures: string[] = [];
    const table: string[] = [];
    const secured = operations(doc)
      .filter((o) => o.secured)
      .sort(byMethod);
    const credentials = [
      ['session', stranger.token],
      ['api key', strangerKey],
      ['bound key', strangerBoundKey],
    ] as const;

    for (const o of secured) {
      const key = `${o.method} ${o.path}`;
      const path = fillPath(o, pathId);
      if (path === undefined) continue; // reported by the coverage test above
      const body = bodyFor(o);
      const query = new URLSearchParams();
      for (const q of o.queryParams) if (q.required) query.set(q.name, (refsByName() as Record<string, string>)[q.name] ?? 'x');
      const url = query.size ? `${path}?${query}` : path;
      const sent = `${url} ${JSON.stringify(body ?? null)}`;
      const reachesOwner = Object.values(A).some((id) => id !== '1' && sent.includes(id));

      if (!reachesOwner) {
        // Nothing of the owner's can be named here (the caller's own account, lists of their own tenancy):
        // a fresh stranger calls it, and it must neither fail nor show the owner's data.
        const self = await registerUser(h, 'Self');
        const res = await send(o.method, url, self.token, body);
        const leaks = leakedIds(res.text, sent);
        table.push(`| ${key} | own scope | ${res.status} | – | – |`);
        if (res.status >= 500 || res.status < 0) failures.push(`${key} [own scope] → ${res.status} ${res.text.slice(0, 300)}`);
        if (leaks.length) failures.push(`${key} [own scope] leaks the owner's ${leaks.join(', ')}`);
        continue;
      }

      const statuses: number[] = [];
      for (const [label, token] of credentials) {
        const allowed = new Set<number>([404]);
        if (OPERATOR_ONLY(o)) allowed.add(403);
        if (label === 'bound key') allowed.add(403);
        const res = await send(o.method, url, token, body);
        statuses.push(res.status);
        let ok = allowed.has(res.status);
        // The batch endpoint answers 200 with one result per entry; every entry must be the single endpoint's 404.
        if (!ok && key === 'POST /v1/queue/decisions' && res.status === 200) {
          const parsed = JSON.parse(res.text);
          ok = parsed.succeeded === 0 && parsed.results.every((r: any) => r.ok === false && r.statusCode === 404);
        }
        if (!ok && ANSWERED_AS_UNKNOWN.has(key) && res.status < 500) ok = await answeredAsUnknown(o.method, url, token, body, res);
        if (!ok)
          failures.push(
            `${key} [${label}] ${o.method} ${url} body=${JSON.stringify(body ?? null).slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`,
          );
        const leaks = leakedIds(res.text, sent);
        if (leaks.length) failures.push(`${key} [${label}] leaks the owner's ${leaks.join(', ')} in ${res.text.slice(0, 300)}`);
      }
      table.push(`| ${key} | ${o.pathParams.length ? 'path ids' : 'body/query ids'} | ${statuses.join(' | ')} |`);
    }
    console.log(['| operation | reaches the owner by | session | api key | bound key |', '|---|---|---|---|---|', ...table].join('\n'));
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it("answers list filters naming the owner's workspace, project, order or client with 404/403 and none of the owner's items", async () => {
    const FILTERS: Record<string, () => string> = {
      workspaceId: () => A.workspace!,
      projectId: () => A.project!,
      parentOrderId: () => A.order!,
      clientId: () => A.client!,
    };
    const failures: string[] = [];
    const covered: string[] = [];
    const ownIds = (param: string, path: string) => (param === 'workspace_id' ? stranger.workspaceId : pathId(param, path));
    for (const o of operations(doc).filter((x) => x.secured && x.method === 'GET')) {
      for (const q of o.queryParams.filter((x) => x.name in FILTERS)) {
        const path = fillPath(o, ownIds);
        if (path === undefined) {
          failures.push(`${o.method} ${o.path}?${q.name}: no own id for its path parameters`);
          continue;
        }
        const values = [FILTERS[q.name]!()];
        if (q.name === 'projectId' && o.path === '/v1/campaigns') values[0] = A.brand!;
        for (const [label, token] of [
          ['session', stranger.token],
          ['api key', strangerKey],
          ['bound key', strangerBoundKey],
        ] as const) {
          const url = `${path}?${q.name}=${encodeURIComponent(values[0]!)}`;
          const res = await send('GET', url, token, undefined);
          const allowed = label === 'bound key' ? [403, 404] : [404];
          let ok = allowed.includes(res.status);
          if (!ok && ANSWERED_AS_UNKNOWN.has(`GET ${o.path}?${q.name}`) && res.status < 500)
            ok = await answeredAsUnknown('GET', url, token, undefined, res);
          if (!ok) failures.push(`GET ${url} [${label}] → ${res.status} ${res.text.slice(0, 300)}`);
          const leaks = leakedIds(res.text, url);
          if (leaks.length) failures.push(`GET ${url} [${label}] shows the owner's ${leaks.join(', ')}`);
        }
        covered.push(`${o.path}?${q.name}`);
      }
    }
    console.log(`list filters swept:\n${covered.join('\n')}`);
    expect(covered.length).toBeGreaterThanOrEqual(10);
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

/** Every leaf of a JSON value, as a path of keys, with its value. */
function leaves(value: unknown, at: Array<string | number> = []): Array<{ at: Array<string | number>; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...at, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, k]));
  return [{ at, value }];
}
function replaceAt(value: unknown, at: Array<string | number>, next: unknown): unknown {
  if (at.length === 0) return next;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[at[0]!] = replaceAt(copy[at[0]!], at.slice(1), next);
  return copy;
}

describe('hostile input on every operation, generated from /openapi.json', () => {
  it('never answers 5xx to NUL bytes, lone surrogates, extreme numbers, deep JSON or out-of-range query and path integers', async () => {
    const failures: string[] = [];
    let sent = 0;
    const tally: Record<number, number> = {};
    const all = operations(doc).sort(byMethod);
    // These end the caller's own account or session: a throwaway user takes them.
    const ENDS_THE_CALLER = new Set(['DELETE /v1/users/me', 'POST /v1/auth/logout']);
    const check = async (o: Operation, what: string, url: string, body: unknown, raw?: string) => {
      const token = !o.secured
        ? undefined
        : ENDS_THE_CALLER.has(`${o.method} ${o.path}`)
          ? (await registerUser(h, 'Throwaway')).token
          : owner.token;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
      const ctrl = new AbortController();
      const timer = setTimeout(() => ctrl.abort(), 8_000);
      let status = -1;
      let text = '';
      try {
        const res = await fetch(`${h.url}${url}`, {
          method: o.method,
          headers: payload === undefined ? { ...headers, 'content-type': '' } : headers,
          body: payload,
          signal: ctrl.signal,
        });
        status = res.status;
        text = await res.text().catch(() => '<stream>');
      } catch (err) {
        text = (err as Error).message;
      } finally {
        clearTimeout(timer);
      }
      sent++;
      tally[status] = (tally[status] ?? 0) + 1;
      if (process.env.SWEEP_DEBUG && status < 300) console.log(`${status} ${o.method} ${url} — ${what}`);
      if (status >= 500 || status < 0)
        failures.push(
          `${o.method} ${o.path} — ${what}: ${o.method} ${url} ${(payload ?? '').slice(0, 160)} → ${status} ${text.slice(0, 200)}`,
        );
    };

    for (const o of all) {
      const path = fillPath(o, pathId);
      if (path === undefined) continue;
      const key = `${o.method} ${o.path}`;
      if (key === 'GET /v1/runs/{run_id}/events') continue; // a live stream; its parameters are plain ids, swept above
      const body = jsonBodySchema(doc, o.op) ? (bodyFor(o) ?? {}) : undefined;
      if (body !== undefined) {
        for (const leaf of leaves(body)) {
          const where = leaf.at.join('.') || '(body)';
          if (typeof leaf.value === 'string') {
            await check(o, `NUL in ${where}`, path, replaceAt(body, leaf.at, `a${'\u0000'}b`));
            await check(o, `lone surrogate in ${where}`, path, replaceAt(body, leaf.at, `a${'\ud800'}b`));
          } else if (typeof leaf.value === 'number') {
            for (const n of [1e308, -1e308, 2 ** 53 + 1, -1, 0.5]) await check(o, `${n} in ${where}`, path, replaceAt(body, leaf.at, n));
          }
        }
        await check(o, 'JSON nested 100,000 deep', path, undefined, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
        await check(
          o,
          'object nested 10,000 deep in the body',
          path,
          undefined,
          JSON.stringify(body).replace(
            /}$/,
            `${body && typeof body === 'object' && Object.keys(body).length ? ',' : ''}"deep":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
          ),
        );
      }
      for (const q of o.queryParams) {
        if (!['integer', 'number'].includes(String(q.schema.type))) continue;
        for (const v of ['99999999999999999999', '-1', '1e400', '2147483648', '0x10'])
          await check(o, `query ${q.name}=${v}`, `${path}?${q.name}=${v}`, body);
      }
      // Raw, already-encoded pieces: a NUL, a UTF-16 surrogate as (invalid) UTF-8, a malformed escape, an overlong id.
      const RAW_PIECES: Array<[string, string]> = [
        ['NUL', 'a%00b'],
        ['surrogate as UTF-8 bytes', 'a%ED%A0%80b'],
        ['malformed percent escape', 'a%E0%A4%A'],
        ['overlong id', 'x'.repeat(10_000)],
      ];
      for (const q of o.queryParams) {
        for (const [what, piece] of RAW_PIECES) await check(o, `${what} in query ${q.name}`, `${path}?${q.name}=${piece}`, body);
      }
      for (const p of o.pathParams) {
        for (const [what, piece] of RAW_PIECES) {
          const url = o.path.replace(/\{(\w+)\}/g, (_, name) => (name === p ? piece : encodeURIComponent(pathId(name, o.path)!)));
          await check(o, `${what} in path ${p}`, url, body);
        }
      }
      if (o.pathParams.includes('number')) {
        for (const v of ['99999999999999999999', '2147483648', '-1', '0'])
          await check(
            o,
            `path number=${v}`,
            o.path.replace(/\{(\w+)\}/g, (_, p) => (p === 'number' ? v : encodeURIComponent(pathId(p, o.path)!))),
            body,
          );
      }
    }
    console.log(`hostile input: ${sent} requests over ${all.length} operations; statuses ${JSON.stringify(tally)}`);
    expect(failures, failures.join('\n')).toEqual([]);
  });
});
