import type { ClientContactRow, ClientEventRow, ClientMonth, ClientRow } from '@atelier/db';
import { type Billing, expectedFeeCents, roundUsd } from '@atelier/domain';
import { wireEtag } from '../http/etag.js';

/** The wire shape of a client; money (billing, customer, cost, fees) only for owners and admins. */
export function billingOf(c: ClientRow): Billing | null {
  if (!c.billing_model || !c.billing_period || c.billing_amount_cents === null) return null;
  return { model: c.billing_model, amountCents: c.billing_amount_cents, period: c.billing_period, renewsOn: c.renews_on };
}

export function rollupOf(c: ClientRow, month: ClientMonth, periodStart: string) {
  return {
    periodStart,
    costUsd: roundUsd(month.costUsd),
    waitingOnYou: month.waitingOnYou,
    made: month.made,
    expectedFeeCents: expectedFeeCents(billingOf(c), { periodStart, costUsd: month.costUsd }),
  };
}

export function presentClient(
  c: ClientRow,
  parts: { projects: Array<{ id: string; name: string; archived: boolean }>; month: ClientMonth; periodStart: string; seesMoney: boolean },
) {
  const rollup = rollupOf(c, parts.month, parts.periodStart);
  const billing = billingOf(c);
  return {
    id: c.id,
    workspaceId: c.workspace_id,
    name: c.name,
    slug: c.slug,
    status: c.status,
    statusNote: c.status_note,
    billing:
      parts.seesMoney && billing
        ? { version: c.billing_version, ...billing, currency: c.billing_currency!, scope: c.billing_scope ?? [] }
        : null,
    renewsOn: c.renews_on,
    paymentCustomerId: parts.seesMoney ? c.payment_customer_id : null,
    notes: c.notes,
    archived: c.archived_at !== null,
    archivedAt: c.archived_at ? c.archived_at.toISOString() : null,
    etag: wireEtag(c.etag),
    projects: parts.projects.map((p) => ({ id: p.id, name: p.name, archived: p.archived })),
    rollup: parts.seesMoney ? rollup : { ...rollup, costUsd: null, expectedFeeCents: null },
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
  };
}

export const presentClientEvent = (e: ClientEventRow) => ({
  id: e.id,
  fromStatus: e.from_status as 'lead' | null,
  toStatus: e.to_status as 'lead',
  statusNote: e.status_note,
  actorId: e.actor_id,
  createdAt: e.created_at.toISOString(),
});

export const presentContact = (c: ClientContactRow) => ({
  id: c.id,
  name: c.name,
  email: c.email,
  role: c.role,
  approvesWork: c.approves_work,
});
