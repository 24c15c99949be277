import { randomBytes } from 'node:crypto';
import { OpenAPIHono, createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type Executor, type WebhookAttemptRow, type WebhookHealthRow, type WebhookTargetKind, webhookHealthOf } from '@atelier/db';
import { formatWebhookSecret, generateWebhookKey, sealTargetKey, secretsKeyFromEnv } from '@atelier/engine/webhooks/index';
import { type WorkspaceAccess, requireWriter, resourceAccess, workspaceAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { requireSendableUrl } from '../http/outbound-url.js';
import { json, jsonBody, secured } from '../http/route.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';

/**
 * Signed webhook targets: a workspace's URL with a signing secret sealed at rest (shown once, at creation
 * and at each rotation), delivered to per Standard Webhooks, with its delivery health. Publications and
 * event webhook endpoints are the two; this module answers what they share (create, list, read, change,
 * rotate the secret), and each resource's own module declares only what differs: its contract's schemas
 * and words, its columns, and its own operations (documents and verify, events and test sends).
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export type DeliveryHealth = ReturnType<typeof presentHealth>;

export function presentHealth(h: WebhookHealthRow | undefined) {
  if (!h) return { status: 'unknown' as const, lastAttemptAt: null, lastStatusCode: null, consecutiveFailures: 0 };
  return {
    status: h.last_ok ? ('healthy' as const) : ('failing' as const),
    lastAttemptAt: iso(h.last_attempt_at),
    lastStatusCode: h.last_status_code,
    consecutiveFailures: h.consecutive_failures,
  };
}

/** One attempt at delivering a message, as every target's delivery listing shows it. */
export function presentAttemptOf(a: WebhookAttemptRow) {
  return {
    attempt: a.attempt,
    attemptedAt: iso(a.started_at)!,
    webhookTimestamp: Number(a.webhook_timestamp),
    url: a.url,
    statusCode: a.status_code,
    outcome: a.outcome,
    error: a.error,
    redirectedTo: a.redirected_to,
    durationMs: a.duration_ms,
  };
}

/** The deployment's secrets key; a gateway without one cannot create, rotate or verify (503, naming the setting). */
export function secretsKeyOf(c: Context<AppEnv>): Buffer {
  const key = c.get('services').secretsKey ?? secretsKeyFromEnv(process.env);
  if (!key) throw fail.unavailable('webhook signing secrets cannot be sealed: ATELIER_SECRETS_KEY is not set on this gateway', 60);
  return key;
}

type TargetRow = { id: string; workspace_id: string; secret_rotated_at: Date; created_at: Date; updated_at: Date };

/** One kind of signed webhook target: how it is stored, named and shown. */
export interface SignedTarget<Row extends TargetRow, Insert, Patch, Own> {
  /** Its kind in the shared webhook tables and in its secret's seal. */
  kind: WebhookTargetKind;
  /** How a 404 names one (`publication`, `webhook endpoint`). */
  noun: string;
  /** Its queries (db signed-webhook-targets). */
  store: {
    insert(db: Executor, row: Insert): Promise<Row>;
    get(db: Executor, id: string): Promise<Row | undefined>;
    list(db: Executor, workspaceId: string, page: { offset: number; limit: number }): Promise<{ items: Row[]; total: number }>;
    update(db: Executor, id: string, patch: Patch): Promise<Row | undefined>;
    replaceSecret(db: Executor, id: string, secretSealed: string): Promise<Row | undefined>;
  };
  /** Its own fields in its record, which stand between workspaceId and secretRotatedAt. */
  fields(row: Row): Own;
}

/** A target's record: id and workspace, its own fields, then its secret's age, its delivery health and its times. */
export function presentTarget<Row extends TargetRow, Own>(target: SignedTarget<Row, never, never, Own>, row: Row, health: DeliveryHealth) {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    ...target.fields(row),
    secretRotatedAt: iso(row.secret_rotated_at)!,
    deliveryHealth: health,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** A target the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
export async function targetFor<Row extends TargetRow>(
  c: Context<AppEnv>,
  target: SignedTarget<Row, never, never, unknown>,
  id: string,
  write: boolean,
): Promise<Row> {
  const notFound = `${target.noun} ${id} not found`;
  const row = await target.store.get(c.get('services').db, id);
  if (!row) throw fail.notFound(notFound);
  const access = await resourceAccess(callerOf(c), row.workspace_id, notFound);
  if (write) requireWriter(access);
  return row;
}

/** Targets with their delivery health (one query for the lot). */
export async function targetRecords<Row extends TargetRow, Own>(
  c: Context<AppEnv>,
  target: SignedTarget<Row, never, never, Own>,
  rows: Row[],
) {
  const health = await webhookHealthOf(
    c.get('services').db,
    target.kind,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentTarget(target, r, presentHealth(health.get(r.id))));
}

export async function targetRecord<Row extends TargetRow, Own>(c: Context<AppEnv>, target: SignedTarget<Row, never, never, Own>, row: Row) {
  return (await targetRecords(c, target, [row]))[0]!;
}

/** Where a resource's operations stand in the contract. */
export interface TargetPlace {
  tag: string;
  /** The collection's path (`/v1/publications`); one target is at `{path}/{idParam}`. */
  path: string;
  idParam: string;
  /** The path parameters of one target. */
  idParams: z.ZodObject;
}

const onePath = (at: TargetPlace) => `${at.path}/{${at.idParam}}`;
const idOf = (c: Context<AppEnv>, at: TargetPlace) => (c.req.valid as (target: 'param') => Record<string, string>)('param')[at.idParam]!;

/** What a resource's contract says of the shared operations: its schemas, paths and words. */
export interface SignedTargetContract<CreateBody, UpdateBody, Insert, Patch> extends TargetPlace {
  /** The id of a new target (`pub-…`, `ep-…`). */
  idPrefix: string;
  /** The body field holding the URL deliveries go to, checked against the egress policy. */
  urlField: string;
  /** How descriptions name one target and several (`publication`, `Publications`). */
  one: string;
  many: string;
  schemas: {
    createRequest: z.ZodType;
    withSecret: z.ZodType;
    listQuery: z.ZodObject;
    list: z.ZodType;
    record: z.ZodType;
    updateRequest: z.ZodType;
  };
  summaries: { create: string; list: string; get: string; update: string; rotateSecret: string };
  /** The create operation's error statuses. */
  createErrors: number[];
  /** Refusals a create checks after the URL and before the secret (a per-workspace limit). */
  checkCreate?: (c: Context<AppEnv>, access: WorkspaceAccess, body: CreateBody) => Promise<void>;
  /** The insert's own columns, between workspace_id and secret_sealed. */
  columns(body: CreateBody): Omit<Insert, 'id' | 'workspace_id' | 'secret_sealed' | 'created_by'>;
  /** The columns a change sets (only those the body names). */
  changes(body: UpdateBody): Patch;
  /** Runs a write and answers its conflicts (unique slugs) as the contract says. */
  answerConflicts?: <T>(write: () => Promise<T>) => Promise<T>;
}

/**
 * The shared operations of a signed webhook target, in the order the contract lists them: create (the
 * secret in that response only), list, read, change, rotate the secret. The resource's module chains its
 * own operations onto what this returns.
 */
export function signedTargetRoutes<Row extends TargetRow, Insert, Patch, Own, CreateBody, UpdateBody>(
  target: SignedTarget<Row, Insert, Patch, Own>,
  contract: SignedTargetContract<CreateBody, UpdateBody, Insert, Patch>,
) {
  const { schemas, summaries, urlField, idParams } = contract;
  const bodyOf = <T>(c: Context<AppEnv>) => (c.req.valid as (target: 'json') => T)('json');
  const urlOf = (body: unknown) => (body as Record<string, string | undefined>)[urlField];
  const write = contract.answerConflicts ?? (<T>(w: () => Promise<T>) => w());
  const notFound = (id: string) => fail.notFound(`${target.noun} ${id} not found`);
  const withSecret = async (c: Context<AppEnv>, row: Row, key: Buffer) => ({
    ...(await targetRecord(c, target, row)),
    secret: formatWebhookSecret(key),
  });

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(
      createRoute({
        ...secured(contract.tag),
        method: 'post',
        path: contract.path,
        summary: summaries.create,
        request: { body: jsonBody(schemas.createRequest) },
        responses: {
          201: { description: `The ${contract.one} and its secret, shown once`, ...json(schemas.withSecret) },
          ...errorResponses(...contract.createErrors),
        },
      }),
      async (c) => {
        const body = bodyOf<CreateBody & { workspaceId?: string }>(c);
        const access = await workspaceAccess(callerOf(c), body.workspaceId);
        requireWriter(access);
        await requireSendableUrl(c, urlOf(body)!, ['body', urlField]);
        await contract.checkCreate?.(c, access, body);
        const secretsKey = secretsKeyOf(c);
        const id = `${contract.idPrefix}-${randomBytes(8).toString('hex')}`;
        const key = generateWebhookKey();
        const row = await write(() =>
          target.store.insert(c.get('services').db, {
            id,
            workspace_id: access.workspaceId,
            ...contract.columns(body),
            secret_sealed: sealTargetKey(secretsKey, target.kind, id, key),
            created_by: c.get('principal').userId,
          } as Insert),
        );
        return c.json(await withSecret(c, row, key), 201);
      },
    )
    .openapi(
      createRoute({
        ...secured(contract.tag),
        method: 'get',
        path: contract.path,
        summary: summaries.list,
        request: { query: schemas.listQuery },
        responses: { 200: { description: contract.many, ...json(schemas.list) }, ...errorResponses(401, 403, 404, 422) },
      }),
      async (c) => {
        const q = (c.req.valid as (target: 'query') => { workspaceId?: string; offset: number; limit: number })('query');
        const access = await workspaceAccess(callerOf(c), q.workspaceId);
        const page = await target.store.list(c.get('services').db, access.workspaceId, q);
        return c.json({ items: await targetRecords(c, target, page.items), total: page.total }, 200);
      },
    )
    .openapi(
      createRoute({
        ...secured(contract.tag),
        method: 'get',
        path: onePath(contract),
        summary: summaries.get,
        request: { params: idParams },
        responses: { 200: { description: `The ${contract.one}`, ...json(schemas.record) }, ...errorResponses(401, 403, 404, 422) },
      }),
      async (c) => {
        const row = await targetFor(c, target, idOf(c, contract), false);
        return c.json(await targetRecord(c, target, row), 200);
      },
    )
    .openapi(
      createRoute({
        ...secured(contract.tag),
        method: 'patch',
        path: onePath(contract),
        summary: summaries.update,
        request: { params: idParams, body: jsonBody(schemas.updateRequest) },
        responses: { 200: { description: `The ${contract.one}`, ...json(schemas.record) }, ...errorResponses(401, 403, 404, 422) },
      }),
      async (c) => {
        const body = bodyOf<UpdateBody>(c);
        const row = await targetFor(c, target, idOf(c, contract), true);
        const url = urlOf(body);
        if (url !== undefined) await requireSendableUrl(c, url, ['body', urlField]);
        const updated = await target.store.update(c.get('services').db, row.id, contract.changes(body));
        if (!updated) throw notFound(row.id);
        return c.json(await targetRecord(c, target, updated), 200);
      },
    )
    .openapi(
      createRoute({
        ...secured(contract.tag),
        method: 'post',
        path: `${onePath(contract)}/rotate-secret`,
        summary: summaries.rotateSecret,
        request: { params: idParams },
        responses: {
          200: { description: `The ${contract.one} and its new secret, shown once`, ...json(schemas.withSecret) },
          ...errorResponses(401, 403, 404, 422, 503),
        },
      }),
      async (c) => {
        const row = await targetFor(c, target, idOf(c, contract), true);
        const key = generateWebhookKey();
        const updated = await target.store.replaceSecret(
          c.get('services').db,
          row.id,
          sealTargetKey(secretsKeyOf(c), target.kind, row.id, key),
        );
        if (!updated) throw notFound(row.id);
        return c.json(await withSecret(c, updated, key), 200);
      },
    );
}

/** What a resource shows of its deliveries: its words and schemas, the page it reads and how one item looks. */
export interface TargetDeliveries<Row, Query, Item> {
  summary: string;
  /** The 200 answer's description. */
  description: string;
  query: z.ZodObject;
  list: z.ZodType;
  page(db: Executor, row: Row, query: Query): Promise<{ items: Item[]; total: number }>;
  present(item: Item): unknown;
}

/**
 * A target's deliveries, newest first and paged: to be chained by the resource where its contract lists it,
 * as `.openapi(...targetDeliveriesRoute(…))`.
 */
export function targetDeliveriesRoute<Row extends TargetRow, Query, Item>(
  target: SignedTarget<Row, never, never, unknown>,
  at: TargetPlace,
  deliveries: TargetDeliveries<Row, Query, Item>,
) {
  const route = createRoute({
    ...secured(at.tag),
    method: 'get',
    path: `${onePath(at)}/deliveries`,
    summary: deliveries.summary,
    request: { params: at.idParams, query: deliveries.query },
    responses: { 200: { description: deliveries.description, ...json(deliveries.list) }, ...errorResponses(401, 403, 404, 422) },
  });
  const handler = async (c: Context<AppEnv>) => {
    const row = await targetFor(c, target, idOf(c, at), false);
    const page = await deliveries.page(c.get('services').db, row, (c.req.valid as (target: 'query') => Query)('query'));
    return c.json({ items: page.items.map(deliveries.present), total: page.total }, 200);
  };
  return [route, handler] as const;
}
