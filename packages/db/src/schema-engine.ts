import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns.js';

export type EngineCommandKind = 'start_run' | 'start_order' | 'cancel_run' | 'cancel_order' | 'deliver_webhook' | 'decide_run';

export interface EngineCommandsTable {
  id: Generated<number>;
  kind: EngineCommandKind;
  target_id: string;
  created_at: Generated<Date>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  done_at: NullableTimestamp;
  /** The W3C traceparent of the request that recorded the command (null when tracing was off). */
  traceparent: string | null;
}

export interface EngineSchema {
  engine_commands: EngineCommandsTable;
}
