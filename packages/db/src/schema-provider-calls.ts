import type { Generated } from 'kysely';
import type { Numeric } from './schema-columns.js';

/** Every answered provider call and what it cost (migration 0012-provider-calls). */
export interface ProviderCallsTable {
  id: Generated<string>;
  run_id: string;
  step_index: number;
  /** The step's `attempts` counter when the call was made. */
  step_attempt: number;
  /** The call's idempotency key: the same for a call repeated by a later attempt. */
  call_key: string;
  provider: string;
  model: string;
  cost_usd: Numeric;
  /** The provider's answer said nothing of what it cost (migration 0021-unpriced-calls): cost_usd is 0, not known. */
  unpriced: Generated<boolean>;
  at: Generated<Date>;
}

export interface ProviderCallsSchema {
  provider_calls: ProviderCallsTable;
}
