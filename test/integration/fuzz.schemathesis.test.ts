import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';
import { ensurePypiTool } from '../support/pypi-tool';
import { notesWorkflow } from '../support/workflows';

/**
 * Schemathesis against the live gateway and its own `/openapi.json`: schema-driven positive and negative
 * inputs for every operation, checking that nothing answers 5xx and every answer (status and body) is one
 * the document declares. Installed from PyPI at a pinned version into `.tools/schemathesis-<version>/`.
 */
const SCHEMATHESIS_VERSION = '4.32.5';
const REPORT_DIR = path.join(PROJECT_ROOT, '.test-data', 'schemathesis-report');

/**
 * Operations left out, and why:
 * - GET /v1/runs/{run_id}/events is a Server-Sent Events stream that stays open while the run lives (the
 *   pinned run below never ends: this gateway has no worker), so every generated case would hang to the
 *   request timeout; its body is `text/event-stream` with no JSON to check. Its refusals (401/404) are swept
 *   by security.sweep.test.ts and its stream by run-events.test.ts.
 * - DELETE /v1/users/me deletes the very account whose key the fuzzer uses; after it every other operation
 *   would only see 401 and the run would stop testing anything.
 */
const EXCLUDED: Array<[method: string, path: string]> = [
  ['GET', '/v1/runs/{run_id}/events'],
  ['DELETE', '/v1/users/me'],
];

let h: Harness;
let owner: TestUser;
let apiKey: string;
let st: string;
/** schemathesis.toml pinning path ids to the fuzzer's own resources, so generated bodies reach the handlers instead of a 404. */
let configFile: string;

const toml = (v: string) => JSON.stringify(v);

beforeAll(async () => {
  st = await ensurePypiTool({ name: 'schemathesis', version: SCHEMATHESIS_VERSION, bin: 'st', log: (line) => console.log(line) });
  h = await startHarness({ worker: false });
  owner = await registerUser(h, 'Fuzzer');
  const member = await registerUser(h, 'Member');
  apiKey = await createApiKey(h, owner);
  const post = async (p: string, body?: unknown, expected = 201) => {
    const res = await h.request('POST', p, { token: owner.token, body });
    expect(res.status, `${p}: ${JSON.stringify(res.body)}`).toBe(expected);
    return res.body;
  };
  const ws = owner.workspaceId;
  await post(`/v1/workspaces/${ws}/members`, { email: member.email, role: 'member' });
  const project = (await post(`/v1/workspaces/${ws}/projects`, { name: 'Fuzzed' })).id;
  const project2 = (await post(`/v1/workspaces/${ws}/projects`, { name: 'Fuzzed and deleted' })).id;
  const client = (await post(`/v1/workspaces/${ws}/clients`, { name: 'Acme' })).id;
  const client2 = (await post(`/v1/workspaces/${ws}/clients`, { name: 'Acme two' })).id;
  const contact = (await post(`/v1/clients/${client}/contacts`, { name: 'Pat', email: 'pat@example.com' })).id;
  const contact2 = (await post(`/v1/clients/${client}/contacts`, { name: 'Sam', email: 'sam@example.com' })).id;
  const subject = (await post(`/v1/workspaces/${ws}/subjects`, { displayName: 'Ada', attestations: { adult: true, notPolitical: true } }))
    .id;
  const subject2 = (await post(`/v1/workspaces/${ws}/subjects`, { displayName: 'Bea', attestations: { adult: true, notPolitical: true } }))
    .id;
  const consentBody = {
    grantor: 'subject',
    coversLikeness: true,
    coversVoice: false,
    scope: { uses: ['advertising'], media: ['image'], channels: ['*'], territories: ['*'] },
    startsOn: '2026-01-01',
    endsOn: '2030-12-31',
    evidenceKind: 'signed_release',
    evidenceSha256: randomBytes(32).toString('hex'),
  };
  const consent = (await post(`/v1/subjects/${subject}/consents`, consentBody)).id;
  await post(`/v1/likeness-consents/${consent}:activate`, {}, 200);
  const consent2 = (await post(`/v1/subjects/${subject}/consents`, { ...consentBody, evidenceSha256: randomBytes(32).toString('hex') })).id;
  const artifact = `artifact-${randomBytes(8).toString('hex')}`;
  await h.db
    .insertInto('artifacts')
    .values({
      id: artifact,
      workspace_id: ws,
      title: 'portrait',
      status: 'ready',
      artifact_class: 'visual',
      artifact_type: 'illustration',
      content: JSON.stringify({ type: 'image' }),
      qa: JSON.stringify({ status: 'passed', checks: [] }),
    } as never)
    .execute();
  const character = (await post('/v1/characters', { projectId: project, name: 'Ada', format: 'likeness', persona: { summary: 'warm' } }))
    .id;
  const item = (await post(`/v1/characters/${character}/references`, { role: 'portrait', artifactId: artifact })).references[0].id;
  await post(`/v1/characters/${character}/versions`, { subjectId: subject, note: 'first' });
  const binding = (
    await post(`/v1/characters/${character}/versions/1/bindings`, {
      provider: 'local',
      assetKind: 'likeness',
      assetId: 'asset-1',
      providerConsentStatus: 'accepted',
    })
  ).id;
  const character2 = (await post('/v1/characters', { projectId: project, name: 'Bea', format: 'synthetic' })).id;
  const budget = (
    await post('/v1/budgets', { scope: 'workspace', workspaceId: ws, limitUsd: 5, period: 'month', enforcementMode: 'hard_stop' })
  ).id;
  const run = (await post('/v1/runs', { templateId: 'plan-research-report', intake: { topic: 'x' }, projectId: project })).id;
  const order = (
    await post('/v1/orders', {
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }] } },
    })
  ).id;
  const workflow = (await post('/v1/workflows', { definition: draftWorkflow('plan-fuzzed-notes') })).id;
  const brand = (await post('/v1/brands', { workspaceId: ws, name: 'Northwind', profile: { audience: 'Home brewers' } })).id;
  await post(`/v1/brands/${brand}/profile/publish`, undefined, 200);
  const campaign = (await post('/v1/campaigns', { projectId: brand, name: 'Spring', brief: { objective: 'Launch' } })).id;
  const campaign2 = (await post('/v1/campaigns', { projectId: brand, name: 'Autumn', brief: { objective: 'Launch' } })).id;
  const key2 = (await post('/v1/api-keys', { name: 'to be revoked' })).id;
  const publication = await post('/v1/publications', {
    workspaceId: ws,
    slug: `fuzz-${randomBytes(3).toString('hex')}`,
    name: 'Journal',
    revalidateUrl: 'http://127.0.0.1:9/revalidate',
    sectionPath: '/blog',
  });
  const document = (
    await post(`/v1/publications/${publication.id}/documents`, { slug: 'first', title: 'First', body: 'x', categories: [] })
  ).id;
  const endpointBody = { url: 'http://127.0.0.1:9/hooks', events: ['order.attention'] };
  const endpoint = (await post('/v1/webhook-endpoints', endpointBody)).id;
  const endpoint2 = (await post('/v1/webhook-endpoints', endpointBody)).id;

  // Every operation naming an id gets the fuzzer's own resource; the destructive ones get one of their own,
  // so a delete early in the run does not turn every later operation on that resource into a 404.
  const global: Record<string, string> = {
    'path.workspace_id': ws,
    'path.project_id': project,
    'path.user_id': member.userId,
    'path.key_id': key2,
    'path.run_id': run,
    'path.artifact_id': artifact,
    'path.order_id': order,
    'path.budget_id': budget,
    'path.id': workflow,
    'path.subject_id': subject,
    'path.consent_id': consent,
    'path.character_id': character,
    'path.binding_id': binding,
    'path.client_id': client,
    'path.contact_id': contact,
    'path.campaign_id': campaign,
    'path.publication_id': publication.id,
    'path.document_id': document,
    'path.slug': publication.slug,
    'path.endpoint_id': endpoint,
  };
  const perOperation: Array<[selector: string, params: Record<string, string>]> = [
    ['include-path-regex = "^/v1/brands/"', { 'path.project_id': brand }],
    ['include-name = "GET /v1/catalog/workflows/{id}"', { 'path.id': 'plan-research-report' }],
    ['include-name = "GET /v1/brands"', { 'query.workspaceId': ws }],
    ['include-name = "GET /v1/campaigns"', { 'query.projectId': brand }],
    ['include-name = "DELETE /v1/workspaces/{workspace_id}/projects/{project_id}"', { 'path.project_id': project2 }],
    ['include-name = "DELETE /v1/characters/{character_id}"', { 'path.character_id': character2 }],
    ['include-name = "DELETE /v1/characters/{character_id}/references/{item_id}"', { 'path.item_id': item }],
    ['include-name = "DELETE /v1/clients/{client_id}"', { 'path.client_id': client2 }],
    ['include-name = "DELETE /v1/webhook-endpoints/{endpoint_id}"', { 'path.endpoint_id': endpoint2 }],
    ['include-name = "DELETE /v1/clients/{client_id}/contacts/{contact_id}"', { 'path.contact_id': contact2 }],
    ['include-name = "POST /v1/subjects/{subject_id}:erase"', { 'path.subject_id': subject2 }],
    ['include-name = "POST /v1/likeness-consents/{consent_id}:revoke"', { 'path.consent_id': consent2 }],
    [
      'include-name = ["POST /v1/campaigns/{campaign_id}/archive", "POST /v1/campaigns/{campaign_id}/submit"]',
      { 'path.campaign_id': campaign2 },
    ],
  ];
  const lines = ['[parameters]', ...Object.entries(global).map(([k, v]) => `${toml(k)} = ${toml(v)}`), ''];
  for (const [selector, params] of perOperation) {
    lines.push(
      '[[operations]]',
      selector,
      `parameters = { ${Object.entries(params)
        .map(([k, v]) => `${toml(k)} = ${toml(v)}`)
        .join(', ')} }`,
      '',
    );
  }
  await rm(REPORT_DIR, { recursive: true, force: true });
  await mkdir(REPORT_DIR, { recursive: true });
  configFile = path.join(REPORT_DIR, 'schemathesis.toml');
  await writeFile(configFile, lines.join('\n'));
}, 240_000);
afterAll(() => h?.stop());

const draftWorkflow = (id: string) => notesWorkflow(id, { name: 'Fuzzed notes', budgetPolicy: { perRunCapUsd: 0.1 } });

function runSchemathesis(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(st, args, {
      cwd: REPORT_DIR,
      env: { ...process.env, NO_COLOR: '1', COLUMNS: '160', PYTHONUNBUFFERED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

// The fuzzer's time grows with the document (every operation gets its examples); on a CI machine shared with
// the rest of the suite a full pass has taken over 200 s. A pass cut short by this limit fails the test.
const FUZZ_LIMIT_MS = 420_000;

describe('Schemathesis over /openapi.json', () => {
  it(
    'finds no server error and no answer outside the document',
    async () => {
      const exclusions = EXCLUDED.flatMap(([method, p]) => ['--exclude-name', `${method} ${p}`]);
      const args = [
        '--config-file',
        configFile,
        'run',
        `${h.url}/openapi.json`,
        '--header',
        `Authorization: Bearer ${apiKey}`,
        '--checks',
        // The two the gateway promises above all, plus: every status and content type an answer has is one the document declares.
        process.env.SCHEMATHESIS_CHECKS ??
          'not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance',
        '--phases',
        'examples,coverage,fuzzing',
        '--max-examples',
        process.env.SCHEMATHESIS_MAX_EXAMPLES ?? '25',
        // One worker: CPython 3.11's AST validator keeps its recursion depth per interpreter, not per
        // thread, and Hypothesis compiling strategies in two threads at once trips it ("AST constructor
        // recursion depth mismatch").
        '--workers',
        '1',
        '--request-timeout',
        '10',
        '--generation-database',
        'none',
        '--seed',
        process.env.SCHEMATHESIS_SEED ?? '20261123',
        '--no-color',
        '--output-truncate',
        'false',
        '--report',
        'junit',
        '--report-dir',
        REPORT_DIR,
        ...exclusions,
      ];
      let result = await runSchemathesis(args, FUZZ_LIMIT_MS);
      // CPython 3.11 occasionally crashes inside Hypothesis while it compiles a generated strategy
      // ("AST constructor recursion depth mismatch"): the fuzzer's own fault, reported with no failing
      // case against the gateway. Only such a run is tried once more; any finding fails the test.
      const toolCrash = (r: typeof result) =>
        r.code !== 0 && /AST constructor recursion depth mismatch/.test(r.output) && !/^=+ FAILURES/m.test(r.output);
      if (toolCrash(result)) {
        console.log('schemathesis crashed inside Hypothesis (CPython AST recursion bug); running it once more');
        result = await runSchemathesis(args, FUZZ_LIMIT_MS);
      }
      console.log(`schemathesis ${SCHEMATHESIS_VERSION} finished in ${result.ms} ms with exit ${result.code}`);
      if (process.env.SCHEMATHESIS_ECHO) console.log(result.output);
      const start = result.output.search(/^=+ (FAILURES|ERRORS|SUMMARY)/m);
      const report = start >= 0 ? result.output.slice(start) : result.output;
      expect(result.code, `st ${args.join(' ').replace(apiKey, '<key>')}\n\n${report}`).toBe(0);
    },
    2 * FUZZ_LIMIT_MS + 40_000,
  );
});
