import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import * as auth from '../src/auth.js';
import * as characters from '../src/characters.js';
import * as clients from '../src/clients.js';
import { LIMITS, Pagination } from '../src/common.js';
import * as orders from '../src/orders.js';
import * as queue from '../src/queue.js';
import * as runs from '../src/runs.js';
import * as subjects from '../src/subjects.js';
import * as users from '../src/users.js';
import * as workflows from '../src/workflows.js';
import * as workspaces from '../src/workspaces.js';

/** Every request input of these contracts: bodies, query and path parameters. */
const REQUEST_SCHEMAS: Record<string, z.ZodTypeAny> = {
  RegisterRequest: auth.RegisterRequest,
  LoginRequest: auth.LoginRequest,
  RefreshRequest: auth.RefreshRequest,
  CreateApiKeyRequest: auth.CreateApiKeyRequest,
  CharacterCreateRequest: characters.CharacterCreateRequest,
  CharacterUpdateRequest: characters.CharacterUpdateRequest,
  ReferenceCreateRequest: characters.ReferenceCreateRequest,
  BindingCreateRequest: characters.BindingCreateRequest,
  BindingUpdateRequest: characters.BindingUpdateRequest,
  VersionCreateRequest: characters.VersionCreateRequest,
  CheckRequest: characters.CheckRequest,
  ListCharactersQuery: characters.ListCharactersQuery,
  CharacterIdParam: characters.CharacterIdParam,
  ReferenceParams: characters.ReferenceParams,
  VersionParams: characters.VersionParams,
  BindingIdParam: characters.BindingIdParam,
  ClientCreateRequest: clients.ClientCreateRequest,
  ClientUpdateRequest: clients.ClientUpdateRequest,
  ContactCreateRequest: clients.ContactCreateRequest,
  ContactUpdateRequest: clients.ContactUpdateRequest,
  ListClientsQuery: clients.ListClientsQuery,
  ClientIdParam: clients.ClientIdParam,
  ContactParams: clients.ContactParams,
  CreateOrderRequest: orders.CreateOrderRequest,
  OrderIdParam: orders.OrderIdParam,
  RetryFailedRequest: orders.RetryFailedRequest,
  AcceptGapRequest: orders.AcceptGapRequest,
  CreateBudgetRequest: orders.CreateBudgetRequest,
  PatchBudgetRequest: orders.PatchBudgetRequest,
  CostsQuery: orders.CostsQuery,
  ListQueueQuery: queue.ListQueueQuery,
  QueueDecisionRequest: queue.QueueDecisionRequest,
  QueueDecisionEntry: queue.QueueDecisionEntry,
  QueueBatchRequest: queue.QueueBatchRequest,
  QueueRunIdParam: queue.QueueRunIdParam,
  CreateRunRequest: runs.CreateRunRequest,
  MoveRunRequest: runs.MoveRunRequest,
  ListRunsQuery: runs.ListRunsQuery,
  RunIdParam: runs.RunIdParam,
  SubjectCreateRequest: subjects.SubjectCreateRequest,
  SubjectUpdateRequest: subjects.SubjectUpdateRequest,
  ConsentCreateRequest: subjects.ConsentCreateRequest,
  ConsentMoveRequest: subjects.ConsentMoveRequest,
  ListSubjectsQuery: subjects.ListSubjectsQuery,
  SubjectIdParam: subjects.SubjectIdParam,
  ConsentIdParam: subjects.ConsentIdParam,
  UserUpdateRequest: users.UserUpdateRequest,
  AccountDeletionRequest: users.AccountDeletionRequest,
  WorkspaceCreateRequest: workspaces.WorkspaceCreateRequest,
  WorkspaceIdParam: workspaces.WorkspaceIdParam,
  MemberAddRequest: workspaces.MemberAddRequest,
  MemberUpdateRequest: workspaces.MemberUpdateRequest,
  MemberParams: workspaces.MemberParams,
  ProjectCreateRequest: workspaces.ProjectCreateRequest,
  ProjectUpdateRequest: workspaces.ProjectUpdateRequest,
  ProjectParams: workspaces.ProjectParams,
  ListProjectsQuery: workspaces.ListProjectsQuery,
  WorkflowIdParam: workflows.WorkflowIdParam,
  ListWorkflowsQuery: workflows.ListWorkflowsQuery,
  AuthorWorkflowRequest: workflows.AuthorWorkflowRequest,
  PublishWorkflowRequest: workflows.PublishWorkflowRequest,
  DeprecateWorkflowRequest: workflows.DeprecateWorkflowRequest,
  DryRunRequest: workflows.DryRunRequest,
  EstimateRequest: workflows.EstimateRequest,
};

const jsonSchema = (schema: z.ZodTypeAny) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;

const s = (n: number, c = 'x') => c.repeat(n);
const email = (n: number) => `${s(n - '@example.com'.length, 'a')}@example.com`;
const ok = (schema: z.ZodTypeAny, value: unknown) => expect(schema.safeParse(value).error?.issues ?? []).toEqual([]);
const refused = (schema: z.ZodTypeAny, value: unknown, path: PropertyKey[]) => {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  // The issue names the field (or an item of it).
  expect(result.error!.issues.map((i) => i.path.slice(0, path.length))).toContainEqual(path);
};

/** A value at the bound parses; one past it fails, naming the field. */
function bound(schema: z.ZodTypeAny, base: Record<string, unknown>, path: PropertyKey[], atBound: unknown, pastBound: unknown) {
  const set = (value: unknown) => {
    const copy = structuredClone(base);
    let target: any = copy;
    for (const key of path.slice(0, -1)) target = target[key as string];
    target[path.at(-1) as string] = value;
    return copy;
  };
  ok(schema, set(atBound));
  refused(schema, set(pastBound), path);
}

const uuid = '00000000-0000-4000-8000-000000000000';
const INT32 = 2_147_483_647;

describe('request bounds: at the bound parses, one past it is refused', () => {
  it('pagination and integer path parameters stop at the PostgreSQL integer range', () => {
    bound(Pagination, {}, ['offset'], String(INT32), String(INT32 + 1));
    bound(Pagination, {}, ['limit'], '100', '101');
    refused(Pagination, { offset: '99999999999999999999' }, ['offset']);
    bound(characters.VersionParams, { character_id: 'char-0123456789abcdef' }, ['number'], String(INT32), String(INT32 + 1));
    bound(characters.CheckRequest, { media: 'image' }, ['version'], INT32, INT32 + 1);
  });

  it('account inputs: emails 320, passwords 1024, names 200, short text 2,000', () => {
    const register = { email: 'a@example.com', password: 'correct horse battery', name: 'n' };
    bound(auth.RegisterRequest, register, ['email'], email(320), email(321));
    bound(auth.RegisterRequest, register, ['password'], s(1024), s(1025));
    bound(auth.RegisterRequest, register, ['name'], s(200), s(201));
    refused(auth.RegisterRequest, { ...register, password: s(11) }, ['password']);
    bound(auth.LoginRequest, { email: 'a@example.com', password: 'p' }, ['email'], s(320), s(321));
    bound(users.UserUpdateRequest, { currentPassword: 'old' }, ['newPassword'], s(1024), s(1025));
    bound(users.AccountDeletionRequest, {}, ['reason'], s(2_000), s(2_001));
    bound(workspaces.MemberAddRequest, { role: 'member' }, ['email'], s(320), s(321));
    bound(workspaces.ProjectCreateRequest, { name: 'p' }, ['description'], s(10_000), s(10_001));
  });

  it('characters, clients and subjects', () => {
    const character = { projectId: uuid, name: 'c', format: 'synthetic' };
    bound(characters.CharacterCreateRequest, character, ['name'], s(200), s(201));
    bound(characters.CharacterCreateRequest, character, ['requestId'], s(200), s(201));
    bound(characters.CharacterCreateRequest, { ...character, persona: {} }, ['persona', 'summary'], s(10_000), s(10_001));
    bound(characters.CharacterUpdateRequest, {}, ['etag'], s(200), s(201));
    bound(
      characters.BindingCreateRequest,
      { provider: 'p', assetKind: 'voice', providerConsentStatus: 'accepted' },
      ['assetId'],
      s(512),
      s(513),
    );
    bound(characters.CheckRequest, { media: 'image' }, ['territory'], s(100), s(101));

    const client = { name: 'c' };
    bound(clients.ClientCreateRequest, client, ['notes'], s(10_000), s(10_001));
    bound(clients.ClientCreateRequest, client, ['statusNote'], s(2_000), s(2_001));
    bound(clients.ClientCreateRequest, client, ['slug'], s(80, 'a'), s(81, 'a'));
    const billing = { model: 'retainer', amountCents: 0, period: 'month' };
    bound(clients.ClientCreateRequest, { ...client, billing }, ['billing', 'amountCents'], LIMITS.cents, LIMITS.cents + 1);
    bound(clients.ClientCreateRequest, { ...client, billing }, ['billing', 'amountCents'], 0, -1);
    bound(clients.ClientCreateRequest, { ...client, billing }, ['billing', 'scope'], Array(100).fill('s'), Array(101).fill('s'));
    bound(clients.ContactCreateRequest, { name: 'n', email: 'a@example.com' }, ['email'], email(320), email(321));

    bound(
      subjects.SubjectCreateRequest,
      { displayName: 'd', attestations: { adult: true, notPolitical: true } },
      ['displayName'],
      s(200),
      s(201),
    );
    const scope = { uses: ['*'], media: ['*'], channels: ['*'], territories: ['*'] };
    const consent = {
      grantor: 'subject',
      coversLikeness: true,
      coversVoice: false,
      scope,
      startsOn: '2026-01-01',
      endsOn: '2027-01-01',
      evidenceKind: 'other',
      evidenceSha256: s(64, 'a'),
    };
    bound(subjects.ConsentCreateRequest, consent, ['scope', 'uses'], Array(100).fill('u'), Array(101).fill('u'));
    bound(subjects.ConsentCreateRequest, consent, ['scope', 'channels'], [s(100)], [s(101)]);
    bound(subjects.ConsentMoveRequest, {}, ['reason'], s(2_000), s(2_001));
  });

  it('orders and budgets: variations, targetCount, CSV text and USD amounts', () => {
    const order = { workflowId: 'w', variationSpec: { resolver: 'list', params: { items: [{}] } } };
    bound(orders.CreateOrderRequest, order, ['targetCount'], 10_000, 10_001);
    bound(orders.CreateOrderRequest, order, ['workflowId'], s(200), s(201));
    bound(orders.CreateOrderRequest, order, ['variationSpec', 'params', 'items'], Array(10_000).fill({}), Array(10_001).fill({}));
    bound(
      orders.CreateOrderRequest,
      { ...order, variationSpec: { resolver: 'csv', params: { csv: 'a' } } },
      ['variationSpec', 'params', 'csv'],
      s(2_000_000),
      s(2_000_001),
    );
    bound(orders.CreateOrderRequest, { ...order, providerOverrides: {} }, ['providerOverrides', 'writer'], s(200), s(201));
    bound(orders.CreateOrderRequest, order, ['budgetLimitUsd'], 1_000_000, 1_000_000.01);
    bound(orders.CreateOrderRequest, order, ['budgetLimitUsd'], 0, -0.01);
    bound(orders.RetryFailedRequest, {}, ['runIds'], Array(10_000).fill('run-1'), Array(10_001).fill('run-1'));
    bound(orders.AcceptGapRequest, {}, ['reason'], s(2_000), s(2_001));

    const budget = { scope: 'workspace', workspaceId: uuid, limitUsd: 1, period: 'month', enforcementMode: 'hard_stop' };
    bound(orders.CreateBudgetRequest, budget, ['limitUsd'], 1_000_000, 1_000_001);
    bound(orders.CreateBudgetRequest, budget, ['perRunCapUsd'], 0, -1);
    bound(orders.PatchBudgetRequest, {}, ['overageUsd'], 1_000_000, 1_000_001);
    bound(orders.PatchBudgetRequest, {}, ['name'], s(200), s(201));
    bound(orders.CostsQuery, {}, ['from'], '2026-01-01T00:00:00.000Z', `2026-01-01T00:00:00.${s(100, '1')}Z`);
  });

  it('runs, queue and workflows: ids 200, generated ids 64, batches 100, free text 10,000, steps 100, gates 50, intake fields 100', () => {
    bound(runs.CreateRunRequest, { templateId: 't', intake: {} }, ['templateId'], s(200), s(201));
    bound(runs.ListRunsQuery, {}, ['parentOrderId'], s(200), s(201));
    bound(runs.ListRunsQuery, {}, ['q'], s(200), s(201));
    bound(runs.ListRunsQuery, {}, ['createdAfter'], '0001-01-01T00:00:00Z', '0000-12-31T00:00:00Z');
    bound(runs.RunIdParam, {}, ['run_id'], s(64), s(65));
    bound(queue.QueueRunIdParam, {}, ['run_id'], s(64), s(65));
    bound(orders.OrderIdParam, {}, ['order_id'], s(64), s(65));
    bound(queue.QueueDecisionRequest, { decision: 'approve' }, ['note'], s(10_000), s(10_001));
    bound(queue.QueueBatchRequest, {}, ['decisions'], Array(100).fill({}), Array(101).fill({}));
    bound(queue.ListQueueQuery, {}, ['templateId'], s(200), s(201));
    bound(workflows.WorkflowIdParam, {}, ['id'], s(200), s(201));
    bound(workflows.PublishWorkflowRequest, {}, ['version'], s(200), s(201));
    bound(workflows.EstimateRequest, { providers: {} }, ['runtimeSteps'], Array(100).fill({}), Array(101).fill({}));
    bound(workflows.DryRunRequest, {}, ['runtimeSteps'], Array(100).fill({}), Array(101).fill({}));
    bound(workflows.AuthorWorkflowRequest, { definition: {} }, ['definition', 'runtimeSteps'], Array(100).fill({}), Array(101).fill({}));
    bound(workflows.AuthorWorkflowRequest, { definition: {} }, ['definition', 'gates'], Array(50).fill({}), Array(51).fill({}));
    bound(
      workflows.AuthorWorkflowRequest,
      { definition: { intakeSchema: {} } },
      ['definition', 'intakeSchema', 'fields'],
      Array(100).fill({}),
      Array(101).fill({}),
    );
    bound(
      workflows.EstimateRequest,
      { runtimeSteps: [], providers: {}, budgetPolicy: {} },
      ['budgetPolicy', 'perRunCapUsd'],
      1_000_000,
      1_000_001,
    );
  });

  it('keeps defaults and transforms', () => {
    expect(Pagination.parse({})).toEqual({ offset: 0, limit: 50 });
    expect(clients.ListClientsQuery.parse({ includeArchived: 'false' })).toMatchObject({ includeArchived: false, offset: 0 });
    expect(auth.RegisterRequest.parse({ email: '  a@example.com ', password: 'correct horse battery', name: ' n ' })).toMatchObject({
      email: 'a@example.com',
      name: 'n',
    });
    expect(
      clients.ClientCreateRequest.parse({ name: 'c', billing: { model: 'project', amountCents: 5, period: 'one_off' } }).billing,
    ).toMatchObject({ currency: 'USD', scope: [] });
  });
});

describe('the bounds are in the JSON Schema of every request input', () => {
  /** Strings without maxLength (unless an enum, a constant, a uuid or a pattern), arrays without maxItems, numbers without maximum. */
  function unbounded(schema: z.ZodTypeAny): string[] {
    const found: string[] = [];
    const walk = (s: any, where: string) => {
      if (!s || typeof s !== 'object') return;
      for (const k of ['anyOf', 'oneOf', 'allOf'] as const) for (const [i, x] of (s[k] ?? []).entries()) walk(x, `${where}|${i}`);
      const types = [s.type].flat();
      if (types.includes('string') && s.maxLength === undefined && !s.enum && s.const === undefined && s.format !== 'uuid' && !s.pattern)
        found.push(where);
      if (
        (types.includes('integer') || types.includes('number')) &&
        s.maximum === undefined &&
        s.exclusiveMaximum === undefined &&
        s.const === undefined
      )
        found.push(where);
      if (types.includes('array')) {
        if (s.maxItems === undefined) found.push(where);
        walk(s.items, `${where}[]`);
      }
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${k}`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${where}{}`);
      // Free-form JSON objects (intake, patch, definitions: additionalProperties {}) are left to the body cap.
      const freeForm = typeof s.additionalProperties === 'object' && Object.keys(s.additionalProperties).length === 0;
      if (typeof s.propertyNames === 'object' && !freeForm) walk(s.propertyNames, `${where}{key}`);
    };
    walk(jsonSchema(schema), '');
    return found;
  }

  it.each(Object.entries(REQUEST_SCHEMAS))('%s bounds every string, number and array', (_name, schema) => {
    expect(unbounded(schema)).toEqual([]);
  });

  it('carries maxLength, maximum and maxItems with the values of LIMITS', () => {
    const register = jsonSchema(auth.RegisterRequest);
    expect(register.properties.email.maxLength).toBe(320);
    expect(register.properties.password).toMatchObject({ minLength: 12, maxLength: 1024 });
    expect(jsonSchema(Pagination).properties.offset).toMatchObject({ minimum: 0, maximum: INT32 });
    expect(jsonSchema(characters.VersionParams).properties.number).toMatchObject({ minimum: 1, maximum: INT32 });
    const order = jsonSchema(orders.CreateOrderRequest);
    expect(order.properties.targetCount).toMatchObject({ minimum: 1, maximum: 10_000 });
    expect(order.properties.budgetLimitUsd).toMatchObject({ minimum: 0, maximum: 1_000_000 });
    expect(jsonSchema(clients.ClientCreateRequest).properties.notes.maxLength).toBe(10_000);
    expect(jsonSchema(queue.QueueBatchRequest).properties.decisions.maxItems).toBe(100);
  });

  it('shows them in the OpenAPI document generated from a route (no server)', () => {
    const app = new OpenAPIHono();
    app.openapi(
      createRoute({
        method: 'post',
        path: '/characters/{character_id}/versions/{number}',
        request: {
          params: characters.VersionParams,
          query: Pagination,
          body: { content: { 'application/json': { schema: orders.CreateOrderRequest } } },
        },
        responses: { 204: { description: 'done' } },
      }),
      (c) => c.body(null, 204),
    );
    const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } }) as any;
    const op = doc.paths['/characters/{character_id}/versions/{number}'].post;
    const param = (name: string) => op.parameters.find((p: any) => p.name === name).schema;
    expect(param('number')).toMatchObject({ minimum: 1, maximum: INT32 });
    expect(param('offset')).toMatchObject({ minimum: 0, maximum: INT32 });
    expect(param('character_id').maxLength).toBe(64);
    const body = doc.components.schemas.CreateOrderRequest;
    expect(body.properties.targetCount.maximum).toBe(10_000);
    expect(body.properties.workflowId.maxLength).toBe(200);
    // A binding is one id or an ordered list of them (fallbacks): every id is bounded either way.
    expect(body.properties.providerOverrides.additionalProperties).toEqual({ $ref: '#/components/schemas/ModelBinding' });
    const binding = doc.components.schemas.ModelBinding;
    expect(binding.anyOf[0].maxLength).toBe(200);
    expect(binding.anyOf[1]).toMatchObject({ maxItems: 5, items: { maxLength: 200 } });
  });
});
