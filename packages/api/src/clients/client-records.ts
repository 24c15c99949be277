import { type ClientRow, type Db, clientMonths, clientProjects, getClient } from '@atelier/db';
import { monthStart } from '@atelier/domain';
import type { Updateable } from 'kysely';
import type { ClientsTable } from '@atelier/db';
import { type WorkspaceAccess, visibleRecord } from '../access.js';
import { type ApiError, fail } from '../errors.js';
import { PG, pgErrorCode } from '@atelier/db';
import { presentClient, rollupOf } from '../presenters/client.js';
import { presentPage } from '../presenters/page.js';
import type { Caller } from '../caller.js';

/** What the client endpoints share: access, full records with this month's rollup, and billing columns. */
export const seesMoney = (access: WorkspaceAccess) => access.role === 'owner' || access.role === 'admin';

/** The client and the caller's access: 404 outside the caller's workspaces; with `write`, members get 403 admin_required. */
export async function visibleClient(caller: Caller, id: string, write: boolean): Promise<{ client: ClientRow; access: WorkspaceAccess }> {
  const { row: client, access } = await visibleRecord(caller, await getClient(caller.services.db, id), { noun: 'client', id }, write);
  return { client, access };
}

/** One page of what a client the caller may read holds (its contacts, its status history), presented. */
export async function clientPage<R, T>(
  caller: Caller,
  clientId: string,
  page: { offset: number; limit: number },
  list: (db: Db, clientId: string, page: { offset: number; limit: number }) => Promise<{ items: R[]; total: number }>,
  present: (row: R) => T,
) {
  const { client } = await visibleClient(caller, clientId, false);
  return presentPage(await list(caller.services.db, client.id, page), present);
}

export async function clientRecords(caller: Caller, clients: ClientRow[], access: WorkspaceAccess, now = new Date()) {
  const { db } = caller.services;
  const periodStart = monthStart(now);
  const ids = clients.map((cl) => cl.id);
  const [projects, months] = await Promise.all([clientProjects(db, ids), clientMonths(db, ids, periodStart)]);
  return clients.map((client) =>
    presentClient(client, {
      projects: projects.filter((p) => p.client_id === client.id),
      month: months.get(client.id)!,
      periodStart,
      seesMoney: seesMoney(access),
    }),
  );
}

export async function clientRecord(caller: Caller, client: ClientRow, access: WorkspaceAccess) {
  return (await clientRecords(caller, [client], access))[0]!;
}

/** Totals over the clients that count (active and paused); money null for members. */
export async function clientTotals(caller: Caller, clients: ClientRow[], access: WorkspaceAccess, now = new Date()) {
  const periodStart = monthStart(now);
  const months = await clientMonths(
    caller.services.db,
    clients.map((cl) => cl.id),
    periodStart,
  );
  const rollups = clients.map((cl) => rollupOf(cl, months.get(cl.id)!, periodStart));
  const money = seesMoney(access);
  return {
    costUsd: money ? Math.round(rollups.reduce((s, r) => s + r.costUsd, 0) * 1e6) / 1e6 : null,
    expectedFeeCents: money ? rollups.reduce((s, r) => s + (r.expectedFeeCents ?? 0), 0) : null,
    waitingOnYou: rollups.reduce((s, r) => s + r.waitingOnYou, 0),
    made: rollups.reduce((s, r) => s + r.made, 0),
  };
}

export interface BillingInput {
  model: 'retainer' | 'project' | 'hourly' | 'usage';
  amountCents: number;
  currency: string;
  period: 'month' | 'quarter' | 'year' | 'one_off';
  scope: string[];
  renewsOn?: string | null;
}

/** The billing columns for `billing` (null clears it); the version rises whenever billing changes. */
export function billingColumns(billing: BillingInput | null, current: ClientRow | null): Updateable<ClientsTable> {
  const columns = billing
    ? {
        billing_model: billing.model,
        billing_amount_cents: billing.amountCents,
        billing_currency: billing.currency,
        billing_period: billing.period,
        billing_scope: JSON.stringify(billing.scope),
        renews_on: billing.renewsOn ?? null,
      }
    : {
        billing_model: null,
        billing_amount_cents: null,
        billing_currency: null,
        billing_period: null,
        billing_scope: null,
        renews_on: null,
      };
  const changed =
    !current ||
    current.billing_model !== columns.billing_model ||
    current.billing_amount_cents !== columns.billing_amount_cents ||
    current.billing_currency !== columns.billing_currency ||
    current.billing_period !== columns.billing_period ||
    JSON.stringify(current.billing_scope ?? null) !== (columns.billing_scope ?? 'null') ||
    current.renews_on !== columns.renews_on;
  const version = (current?.billing_version ?? 0) + (changed && (billing || current?.billing_model) ? 1 : 0);
  return { ...columns, billing_version: version };
}

/** A live client already holds this slug or payment-processor customer: 409 client_conflict. */
export function clientConflict(err: unknown): ApiError | undefined {
  if (pgErrorCode(err) !== PG.uniqueViolation) return undefined;
  const constraint = (err as { constraint?: string }).constraint;
  if (constraint === 'clients_live_slug')
    return fail.code('client_conflict', { field: 'slug', message: 'a live client of this workspace already has this slug' });
  if (constraint === 'clients_live_customer') {
    return fail.code('client_conflict', {
      field: 'paymentCustomerId',
      message: 'a live client of this workspace already has this payment-processor customer',
    });
  }
  return undefined;
}
