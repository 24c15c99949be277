/**
 * Likeness consent: the contract's state machine (service-spec, States → Consent). The database holds the
 * same table in a trigger; this copy lets the gateway answer 409 invalid_transition with a plain message
 * before it writes anything.
 */
export const CONSENT_STATUSES = ['pending', 'active', 'suspended', 'revoked'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export const CONSENT_MOVES = ['activate', 'suspend', 'resume', 'revoke'] as const;
export type ConsentMove = (typeof CONSENT_MOVES)[number];

const MOVES: Record<ConsentMove, { from: readonly ConsentStatus[]; to: ConsentStatus }> = {
  activate: { from: ['pending'], to: 'active' },
  suspend: { from: ['active'], to: 'suspended' },
  resume: { from: ['suspended'], to: 'active' },
  revoke: { from: ['pending', 'active', 'suspended'], to: 'revoked' },
};

export type ConsentMoveResult =
  | { kind: 'move'; from: ConsentStatus; to: ConsentStatus }
  /** Revoking a revoked consent is accepted and changes nothing. */
  | { kind: 'unchanged'; status: ConsentStatus }
  | { kind: 'invalid'; message: string };

export function consentMove(current: ConsentStatus, move: ConsentMove): ConsentMoveResult {
  const rule = MOVES[move];
  if (rule.from.includes(current)) return { kind: 'move', from: current, to: rule.to };
  if (move === 'revoke' && current === 'revoked') return { kind: 'unchanged', status: current };
  return { kind: 'invalid', message: `a ${current} consent cannot ${move}; allowed from ${rule.from.join(' or ')}` };
}

/** The longest a consent may run: ten years from its first day. */
export const MAX_CONSENT_YEARS = 10;

/** True when `endsOn` (YYYY-MM-DD) is at most ten years after `startsOn`, as PostgreSQL's interval arithmetic counts it. */
export function withinConsentSpan(startsOn: string, endsOn: string): boolean {
  const start = new Date(`${startsOn}T00:00:00Z`);
  const limit = new Date(start);
  limit.setUTCFullYear(start.getUTCFullYear() + MAX_CONSENT_YEARS);
  // Feb 29 + 10 years lands on Mar 1 in JS but Feb 28 in PostgreSQL; clamp to the month like PostgreSQL does.
  if (limit.getUTCMonth() !== start.getUTCMonth()) limit.setUTCDate(0);
  return new Date(`${endsOn}T00:00:00Z`) <= limit;
}
