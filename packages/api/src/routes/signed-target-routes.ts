import { randomBytes } from 'node:crypto';
import { OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Executor } from '@atelier/db';
import { formatWebhookSecret, generateWebhookKey, sealTargetKey } from '@atelier/engine/webhooks/index';
import { type WorkspaceAccess, workspaceAccess, writerAccess } from '../access.js';
import type { Caller } from '../caller.js';
import { fail, validationHook } from '../errors.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';
import { requireSendableUrl } from '../http/outbound-url.js';
import type { AppEnv } from '../services.js';
import {
  type SignedTarget,
  type TargetRow,
  secretsKeyOf,
  targetRecord,
  targetRecords,
  visibleTarget,
} from '../webhook-targets/signed-targets.js';
import { presentPage } from '../presenters/page.js';

/**
 * The operations every signed webhook target shares (webhook-targets/signed-targets.ts): create, list,
 * read, change, rotate the secret, and its deliveries. Each resource's own module declares only what
 * differs: its contract's schemas and words, its columns, and its own operations (documents and verify,
 * events and test sends).
 */

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
  schemas: {
    createRequest: z.ZodType;
    withSecret: z.ZodType;
    listQuery: z.ZodObject;
    list: z.ZodType;
    record: z.ZodType;
    updateRequest: z.ZodType;
  };
  /** Refusals a create checks after the URL and before the secret (a per-workspace limit). */
  checkCreate?: (caller: Caller, access: WorkspaceAccess, body: CreateBody) => Promise<void>;
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
  const { schemas, urlField, idParams } = contract;
  const operation = operationsOf(contract.tag);
  const bodyOf = <T>(c: Context<AppEnv>) => (c.req.valid as (target: 'json') => T)('json');
  const urlOf = (body: unknown) => (body as Record<string, string | undefined>)[urlField];
  const write = contract.answerConflicts ?? (<T>(w: () => Promise<T>) => w());
  const notFound = (id: string) => fail.notFound(target.noun, id);
  const withSecret = async (caller: Caller, row: Row, key: Buffer) => ({
    ...(await targetRecord(caller, target, row)),
    secret: formatWebhookSecret(key),
  });

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(operation(`POST ${contract.path}`, { body: schemas.createRequest }, { 201: schemas.withSecret }), async (c) => {
      const caller = callerOf(c);
      const body = bodyOf<CreateBody & { workspaceId?: string }>(c);
      const access = await writerAccess(caller, body.workspaceId);
      await requireSendableUrl(caller, urlOf(body)!, ['body', urlField]);
      await contract.checkCreate?.(caller, access, body);
      const secretsKey = secretsKeyOf(caller);
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
      return c.json(await withSecret(caller, row, key), 201);
    })
    .openapi(operation(`GET ${contract.path}`, { query: schemas.listQuery }, { 200: schemas.list }), async (c) => {
      const caller = callerOf(c);
      const q = (c.req.valid as (target: 'query') => { workspaceId?: string; offset: number; limit: number })('query');
      const access = await workspaceAccess(caller, q.workspaceId);
      const page = await target.store.list(c.get('services').db, access.workspaceId, q);
      return c.json({ items: await targetRecords(caller, target, page.items), total: page.total }, 200);
    })
    .openapi(operation(`GET ${onePath(contract)}`, { params: idParams }, { 200: schemas.record }), async (c) => {
      const caller = callerOf(c);
      const row = await visibleTarget(caller, target, idOf(c, contract), false);
      return c.json(await targetRecord(caller, target, row), 200);
    })
    .openapi(
      operation(`PATCH ${onePath(contract)}`, { params: idParams, body: schemas.updateRequest }, { 200: schemas.record }),
      async (c) => {
        const caller = callerOf(c);
        const body = bodyOf<UpdateBody>(c);
        const row = await visibleTarget(caller, target, idOf(c, contract), true);
        const url = urlOf(body);
        if (url !== undefined) await requireSendableUrl(caller, url, ['body', urlField]);
        const updated = await target.store.update(c.get('services').db, row.id, contract.changes(body));
        if (!updated) throw notFound(row.id);
        return c.json(await targetRecord(caller, target, updated), 200);
      },
    )
    .openapi(operation(`POST ${onePath(contract)}/rotate-secret`, { params: idParams }, { 200: schemas.withSecret }), async (c) => {
      const caller = callerOf(c);
      const row = await visibleTarget(caller, target, idOf(c, contract), true);
      const key = generateWebhookKey();
      const updated = await target.store.replaceSecret(
        c.get('services').db,
        row.id,
        sealTargetKey(secretsKeyOf(caller), target.kind, row.id, key),
      );
      if (!updated) throw notFound(row.id);
      return c.json(await withSecret(caller, updated, key), 200);
    });
}

/** What a resource shows of its deliveries: its words and schemas, the page it reads and how one item looks. */
export interface TargetDeliveries<Row, Query, Item> {
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
  const route = operationsOf(at.tag)(
    `GET ${onePath(at)}/deliveries`,
    { params: at.idParams, query: deliveries.query },
    { 200: deliveries.list },
  );
  const handler = async (c: Context<AppEnv>) => {
    const row = await visibleTarget(callerOf(c), target, idOf(c, at), false);
    const page = await deliveries.page(c.get('services').db, row, (c.req.valid as (target: 'query') => Query)('query'));
    return c.json(presentPage(page, deliveries.present), 200);
  };
  return [route, handler] as const;
}
