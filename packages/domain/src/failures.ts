/**
 * Failure categories (decisions §4). Deterministic failures would fail the same way again, so they end
 * the run at once; transient ones (timeouts, provider 5xx, rate limits) are retried by the engine first.
 * `code_timeout` is a code step's expression stopped at its time limit: the same expression over the same
 * run context runs as long again, so it is not retried like a provider's timeout.
 */
export const DETERMINISTIC_ERROR_CODES = [
  'intake_invalid',
  'schema_violation',
  'requirement_failed',
  'step_invalid',
  'gate_rejected',
  'budget_gate_exceeded',
  'gate_locked',
  'provider_refused',
  'agent_turn_limit',
  'character_not_usable',
  'code_timeout',
] as const;

export type FailureCategory = 'deterministic' | 'transient';

export function failureCategory(errorCode: string | null | undefined): FailureCategory {
  return (DETERMINISTIC_ERROR_CODES as readonly string[]).includes(errorCode ?? '') ? 'deterministic' : 'transient';
}
