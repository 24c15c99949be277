import type { Generated } from 'kysely';
import type { NullableJson, Timestamp, ManagedRecordColumns } from './schema-columns.js';

/** Tables of clients, their contacts and status events (migration 0005-clients). */
export interface ClientsTable extends ManagedRecordColumns {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  status: 'lead' | 'active' | 'paused' | 'past';
  status_note: string | null;
  billing_version: Generated<number>;
  billing_model: 'retainer' | 'project' | 'hourly' | 'usage' | null;
  billing_amount_cents: number | null;
  billing_currency: string | null;
  billing_period: 'month' | 'quarter' | 'year' | 'one_off' | null;
  billing_scope: NullableJson<string[]>;
  /** YYYY-MM-DD */
  renews_on: string | null;
  payment_customer_id: string | null;
  notes: string | null;
}

export interface ClientEventsTable {
  id: Generated<number>;
  client_id: string;
  workspace_id: string;
  from_status: string | null;
  to_status: string;
  status_note: string | null;
  actor_id: string | null;
  created_at: Timestamp;
}

export interface ClientContactsTable {
  id: string;
  client_id: string;
  workspace_id: string;
  name: string;
  email: string;
  role: string | null;
  approves_work: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientsSchema {
  clients: ClientsTable;
  client_events: ClientEventsTable;
  client_contacts: ClientContactsTable;
}
