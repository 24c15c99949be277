import type { ColumnType, Generated } from 'kysely';
import type { Priority } from '@atelier/contracts/priorities';
import type { Json, NullableJson, NullableTimestamp, Numeric, Timestamp } from './schema-columns.js';
import type { CharactersSchema } from './schema-characters.js';
import type { ClientsSchema } from './schema-clients.js';
import type { EngineSchema } from './schema-engine.js';
import type { BrandsSchema } from './schema-brands.js';
import type { PublicationsSchema } from './schema-publications.js';
import type { WebhookEndpointsSchema } from './schema-webhook-endpoints.js';
import type { ProviderCallsSchema } from './schema-provider-calls.js';

/** Typed view of the PostgreSQL schema that the migrations create. */
export type { Json, NullableJson, NullableTimestamp, Numeric, Timestamp };

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deletion_status: string | null;
  deletion_requested_at: NullableTimestamp;
  deletion_reason: string | null;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  personal: Generated<boolean>;
  created_at: Timestamp;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member';
  created_at: Timestamp;
}

export interface AuthSessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface AuthTokensTable {
  token_hash: string;
  session_id: string;
  kind: 'access' | 'refresh';
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

/** Failed sign-ins counted per account or client address (login-throttles.ts). */
export interface LoginThrottlesTable {
  scope: 'account' | 'address';
  key: string;
  failures: number;
  last_failure_at: Timestamp;
  blocked_until: NullableTimestamp;
}

/** The earliest start of a limited provider key's next call, fleet-wide (provider-capacity.ts). */
export interface ProviderCapacityTable {
  key: string;
  next_at: Timestamp;
}

/** One concurrency permit of a limited provider key: its holder and when it lapses (provider-capacity.ts). */
export interface ProviderCapacityLeasesTable {
  key: string;
  slot: number;
  holder: string | null;
  expires_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  workspace_id: string | null;
  name: string;
  prefix: string;
  secret_hash: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface ProjectsTable {
  id: string;
  workspace_id: string;
  name: string;
  kind: string;
  description: string | null;
  client_id: string | null;
  archived: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkflowsTable {
  id: string;
  workspace_id: string | null;
  name: string;
  status: 'active' | 'deprecated';
  superseded_by_id: string | null;
  visibility: 'draft' | 'internal' | 'public';
  live_version: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkflowVersionsTable {
  workflow_id: string;
  version: string;
  definition: Json;
  definition_hash: string;
  state: 'draft' | 'published';
  visibility: 'draft' | 'internal' | 'public' | null;
  created_at: Timestamp;
  published_at: NullableTimestamp;
}

export interface RunsTable {
  id: string;
  workspace_id: string;
  project_id: string | null;
  template_id: string;
  template_name: string;
  workflow_version: string;
  spec_version_hash: string;
  status: string;
  current_step_index: Generated<number>;
  /** The last sequence number of the run's event log (appendRunEvent increments it). */
  event_seq: Generated<number>;
  cancel_requested_at: Date | null;
  intake: Json<Record<string, unknown>>;
  definition: Json;
  bindings: Json<Record<string, string | string[]>>;
  artifact_id: string | null;
  created_via: 'session' | 'api_key' | 'worker';
  api_key_id: string | null;
  api_key_name: string | null;
  created_by: string | null;
  estimated_usd: Numeric;
  /** The run's own spend: the sum of its steps' cost_actual_usd; what every sum across runs adds. */
  actual_usd: Numeric;
  /**
   * What its sub-workflow children spent, each child's own plus its children's (migration 0027): shown in the
   * run's total, never added across runs, where each child's own spend is counted on the child.
   */
  subworkflow_actual_usd: Numeric;
  currency: Generated<string>;
  cost_status: Generated<string>;
  error: string | null;
  error_code: string | null;
  failure_details: NullableJson;
  parent_run_id: string | null;
  parent_order_id: string | null;
  order_dedupe_key: string | null;
  /** The order workflow's claim that moved this child from planned to pending (claimPlannedChildren). */
  order_claim: Generated<string | null>;
  worker_id: string | null;
  not_executed_reason: string | null;
  review_gate_id: string | null;
  review_gate_name: string | null;
  hold_fields: NullableJson;
  inputs: ColumnType<unknown, string | undefined, string>;
  source_artifact_ids: ColumnType<Record<string, string>, string | undefined, string>;
  superseded_by: string | null;
  execution_mode: Generated<string>;
  /** What the caller asked for (null: normal); the dispatcher starts the workflow with it (domain/priority.ts). */
  priority: ColumnType<Priority | null, Priority | null | undefined, Priority | null>;
  archived: Generated<boolean>;
  queued_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** The `Idempotency-Key` it was created under, until the key's window ends (idempotency.ts). */
  idempotency_key: string | null;
  idempotency_hash: string | null;
  /** Set at creation (migration 0025); `{}` / `[]` when none were given. Metadata is written as JSON text. */
  tags: ColumnType<string[], string[] | undefined, string[]>;
  metadata: ColumnType<Record<string, string>, string | undefined, string>;
  /** The run this one was created again from (POST /v1/runs/{run_id}/rerun); null for any other run. */
  rerun_of: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RunStepsTable {
  run_id: string;
  step_index: number;
  step_id: string;
  name: string;
  kind: string;
  status: string;
  provider: string | null;
  model: string | null;
  duration_ms: number | null;
  /** What the run is billed for this step; 0 for a subWorkflow step, whose child is billed instead. */
  cost_actual_usd: Numeric;
  /** A subWorkflow step's child run's total spend, as it settled; 0 for every other step. */
  subworkflow_actual_usd: Numeric;
  output: NullableJson;
  /** What the step was given, resolved, as it started (migration 0029); null before, or when none or too large. */
  input: NullableJson;
  /** The input's JSON was over STEP_INPUT_MAX_BYTES, so `input` was left null. */
  input_omitted: Generated<boolean>;
  error: string | null;
  error_code: string | null;
  attempts: Generated<number>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** Models of a role binding skipped before the one that ran: `[{ role, model, reason, error }]`; null when none. */
  fallbacks: NullableJson;
}

export interface RunEventsTable {
  run_id: string;
  seq: number;
  type: string;
  data: Json;
  created_at: Timestamp;
}

export interface ArtifactsTable {
  id: string;
  run_id: string | null;
  workspace_id: string;
  project_id: string | null;
  template_id: string | null;
  title: string;
  status: string;
  artifact_class: string;
  artifact_type: string;
  version: Generated<number>;
  content: Json;
  qa: Json;
  source_report_artifact_id: string | null;
  pack_id: string | null;
  pack_member_id: string | null;
  created_at: Timestamp;
}

export interface RunDecisionsTable {
  id: string;
  run_id: string;
  gate_id: string | null;
  decision: 'approve' | 'reject' | 'request_changes';
  note: string | null;
  patch: NullableJson;
  decided_by: string;
  decided_via: string;
  created_at: Timestamp;
}

export interface OrdersTable {
  id: string;
  workspace_id: string;
  project_id: string | null;
  workflow_id: string;
  workflow_version: string;
  status: 'planned' | 'running' | 'attention' | 'completed' | 'failed' | 'cancelled';
  execution_mode: 'standard' | 'batch';
  /** What the caller asked for (null: normal), given to the order workflow and so to its children. */
  priority: ColumnType<Priority | null, Priority | null | undefined, Priority | null>;
  /** Children in flight at most (null: the deployment's ATELIER_ORDER_CONCURRENCY). */
  max_concurrency: ColumnType<number | null, number | null | undefined, number | null>;
  target_count: number;
  planned_count: number;
  skipped_count: number;
  estimated_cost_usd: Numeric;
  budget_limit_usd: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  budget_enforcement_mode: string;
  currency: Generated<string>;
  provider_overrides: Json<Record<string, string>>;
  intake_base: Json<Record<string, unknown>>;
  variation_spec: Json;
  plan_artifact_id: string | null;
  accept_gap_reason: string | null;
  failure_reason: string | null;
  created_by: string | null;
  created_via: string;
  api_key_id: string | null;
  idempotency_key: string | null;
  idempotency_hash: string | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface BudgetsTable {
  id: string;
  workspace_id: string;
  project_id: string | null;
  scope: 'workspace' | 'project';
  limit_usd: Numeric;
  period: 'month' | 'total';
  enforcement_mode: 'hard_stop' | 'allow_overage' | 'allow_one_more' | 'notify_only';
  overage_usd: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  per_run_cap_usd: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BudgetRefusalsTable {
  id: string;
  budget_id: string | null;
  workspace_id: string;
  detail: Json;
  attempted: string;
  caller_id: string | null;
  caller_via: string | null;
  created_at: Timestamp;
}

export interface Database
  extends ClientsSchema,
    CharactersSchema,
    EngineSchema,
    BrandsSchema,
    PublicationsSchema,
    WebhookEndpointsSchema,
    ProviderCallsSchema {
  users: UsersTable;
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  auth_sessions: AuthSessionsTable;
  auth_tokens: AuthTokensTable;
  api_keys: ApiKeysTable;
  login_throttles: LoginThrottlesTable;
  provider_capacity: ProviderCapacityTable;
  provider_capacity_leases: ProviderCapacityLeasesTable;
  projects: ProjectsTable;
  workflows: WorkflowsTable;
  workflow_versions: WorkflowVersionsTable;
  runs: RunsTable;
  run_steps: RunStepsTable;
  run_events: RunEventsTable;
  artifacts: ArtifactsTable;
  run_decisions: RunDecisionsTable;
  orders: OrdersTable;
  budgets: BudgetsTable;
  budget_refusals: BudgetRefusalsTable;
}

export type { Generated };
