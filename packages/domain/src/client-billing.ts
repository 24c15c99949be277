/**
 * What a client's billing implies for the current month (decisions §8): the rollup's `expectedFeeCents`.
 *
 * - retainer and project bill `amountCents` per `period`, spread evenly over its months (quarter ÷ 3,
 *   year ÷ 12, rounded to the cent); `one_off` falls wholly in the month of `renewsOn` (its due date).
 * - usage passes the month's cost to serve through, plus `amountCents` per period as a platform fee.
 * - hourly bills hours nobody records here, so no fee can be implied: null.
 */
export const BILLING_MODELS = ['retainer', 'project', 'hourly', 'usage'] as const;
export const BILLING_PERIODS = ['month', 'quarter', 'year', 'one_off'] as const;
export type BillingModel = (typeof BILLING_MODELS)[number];
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export interface Billing {
  model: BillingModel;
  amountCents: number;
  period: BillingPeriod;
  renewsOn: string | null;
}

/** The first day of `now`'s month (UTC), YYYY-MM-DD: the rollup's period. */
export function monthStart(now: Date = new Date()): string {
  return `${now.toISOString().slice(0, 7)}-01`;
}

function perMonth(amountCents: number, period: BillingPeriod, renewsOn: string | null, periodStart: string): number {
  switch (period) {
    case 'month':
      return amountCents;
    case 'quarter':
      return Math.round(amountCents / 3);
    case 'year':
      return Math.round(amountCents / 12);
    case 'one_off':
      return renewsOn !== null && renewsOn.slice(0, 7) === periodStart.slice(0, 7) ? amountCents : 0;
  }
}

export function expectedFeeCents(billing: Billing | null, month: { periodStart: string; costUsd: number }): number | null {
  if (!billing) return 0;
  if (billing.model === 'hourly') return null;
  const fee = perMonth(billing.amountCents, billing.period, billing.renewsOn, month.periodStart);
  return billing.model === 'usage' ? fee + Math.round(month.costUsd * 100) : fee;
}

/** A slug from a client's name: lowercase letters and digits joined by single hyphens. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'client';
}
