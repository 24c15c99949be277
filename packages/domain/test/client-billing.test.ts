import { describe, expect, it } from 'vitest';
import { expectedFeeCents, monthStart, slugFromName } from '../src/client-billing.js';

const month = { periodStart: '2026-11-01', costUsd: 12.345 };

describe('expected fee of a client for the month', () => {
  it('spreads retainers and projects evenly over their period', () => {
    expect(expectedFeeCents({ model: 'retainer', amountCents: 500_000, period: 'month', renewsOn: null }, month)).toBe(500_000);
    expect(expectedFeeCents({ model: 'retainer', amountCents: 100_000, period: 'quarter', renewsOn: null }, month)).toBe(33_333);
    expect(expectedFeeCents({ model: 'project', amountCents: 1_200_001, period: 'year', renewsOn: null }, month)).toBe(100_000);
  });

  it('puts a one-off fee wholly in the month it falls due', () => {
    expect(expectedFeeCents({ model: 'project', amountCents: 90_000, period: 'one_off', renewsOn: '2026-11-30' }, month)).toBe(90_000);
    expect(expectedFeeCents({ model: 'project', amountCents: 90_000, period: 'one_off', renewsOn: '2026-12-01' }, month)).toBe(0);
    expect(expectedFeeCents({ model: 'project', amountCents: 90_000, period: 'one_off', renewsOn: null }, month)).toBe(0);
  });

  it('passes usage through at cost plus the platform fee; hourly cannot be implied; no billing is nothing', () => {
    expect(expectedFeeCents({ model: 'usage', amountCents: 1_000, period: 'month', renewsOn: null }, month)).toBe(2_235);
    expect(expectedFeeCents({ model: 'hourly', amountCents: 15_000, period: 'month', renewsOn: null }, month)).toBeNull();
    expect(expectedFeeCents(null, month)).toBe(0);
  });

  it('names the month and makes slugs', () => {
    expect(monthStart(new Date('2026-11-22T23:59:59Z'))).toBe('2026-11-01');
    expect(slugFromName('  Café Ölé & Sons, Ltd. ')).toBe('cafe-ole-sons-ltd');
    expect(slugFromName('!!!')).toBe('client');
  });
});
