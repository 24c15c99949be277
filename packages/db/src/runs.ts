import { type Transaction, sql } from 'kysely';
import { isTerminalRunStatus, newRunId } from '@atelier/domain';
import { type NoBudgetApplies, noBudgetApplies } from './budgets.js';
import { compiledOnce, compiledPerShape } from './compiled-once.js';
import { type Db, type Executor, inTransaction } from './connect.js';
import { type DeliverableCommand, type LeasedCommand, engineCommandRow } from './engine-commands.js';
import { isUniqueViolation, pgConstraint } from './errors.js';
import { inOneSnapshot } from './one-snapshot.js';
import { activeTraceparent } from './tracing.js';
import { artifactUpsert } from './runs/artifact-write.js';
import { IN_FLIGHT_RUN_STATUSES, type RunRow, type RunStepRow } from './runs/row.js';
import { announceAppended, appendRunEvents, appendedEvents } from './runs/events.js';
import type { Database, RunsTable } from './schema.js';
import type { EngineCommandKind } from './schema-engine.js';
import type { Insertable } from 'kysely';
import { type CreatedWindow, type PageOf, type PageRequest, asked, createdWithin, pageOf } from './paging.js';

export { type RunRow, type RunStepRow, IN_FLIGHT_RUN_STATUSES } from './runs/row.js';

export { type AnnouncedRunEvent, RUN_EVENTS_CHANNEL, announceRunEvent, parseRunEventAnnouncement } from './run-announce.js';
export { type RunEvent, appendRunEvents } from './runs/events.js';

/**
 * Appends an event to the run's ordered log and announces it, in one statement (appendRunEvents, of one
 * event): the event takes the next number from the run's `event_seq`. Returns its number.
 */
export async function appendRunEvent(tx: Executor, runId: string, type: string, data: unknown): Promise<number> {
  const [seq] = await appendRunEvents(tx, runId, [{ type, data }]);
  return seq!;
}

/** The run's recorded events after the one numbered `afterSeq`, in order (what an event stream sends next). */
export async function runEventsAfter(db: Executor, runId: string, afterSeq: number) {
  return db.selectFrom('run_events').selectAll().where('run_id', '=', runId).where('seq', '>', afterSeq).orderBy('seq').execute();
}

export async function lockRun(tx: Transaction<Database>, runId: string): Promise<RunRow | undefined> {
  return tx.selectFrom('runs').selectAll().where('id', '=', runId).forUpdate().executeTakeFirst();
}

/**
 * Inserts a run and its first event, in one statement; with `command`, the engine's command for the run
 * (start_run) is recorded by the same statement.
 */
export async function insertRun(db: Executor, run: Insertable<RunsTable>, command?: EngineCommandKind): Promise<RunRow> {
  return (await insertRunIf(db, run, command))!;
}

/**
 * insertRun, but only if no budget applies (`onlyIf`) when the statement runs; undefined when one did
 * (nothing was written). A request judged against budgets uses it to skip their transaction when none applies.
 */
export async function insertRunIf(
  db: Executor,
  run: Insertable<RunsTable>,
  command?: EngineCommandKind,
  onlyIf?: NoBudgetApplies,
): Promise<RunRow | undefined> {
  return (await insertRunWith(db, run, command && { kind: command, leased: false }, onlyIf))?.run;
}

/**
 * insertRunIf with its `start_run` command recorded as leased to the caller, who delivers it at once
 * (EngineDispatcher.handOver) with the command this returns; no dispatcher's lease has to find it. Should
 * the caller die first, the lease runs out and any dispatcher delivers it.
 */
export async function insertRunLeased(
  db: Executor,
  run: Insertable<RunsTable>,
  onlyIf?: NoBudgetApplies,
): Promise<{ run: RunRow; command: LeasedCommand } | undefined> {
  const inserted = await insertRunWith(db, run, { kind: 'start_run', leased: true }, onlyIf);
  return inserted && { run: inserted.run, command: { ...inserted.command!, run: inserted.run } };
}

/** How many ids a new run draws before a refusal of its id is taken for something other than chance. */
const RUN_ID_DRAWS = 3;

/**
 * Records a new run with `record`, drawing another id (`drawId`) while the one it has is taken. Run ids are
 * 32 random bits (the contract's `run-` and eight hex characters): with a hundred thousand runs recorded,
 * about one new run in 43,000 draws an id already used, and the primary key refuses its insert, which is no
 * fault of the request. What `record` wrote with the refused id went with its statement or transaction.
 */
export async function withFreeRunId<T>(
  row: Insertable<RunsTable>,
  record: (row: Insertable<RunsTable>) => Promise<T>,
  drawId: () => string = newRunId,
): Promise<T> {
  for (let draw = 1; ; draw++) {
    try {
      return await record(row);
    } catch (err) {
      if (draw >= RUN_ID_DRAWS || !isUniqueViolation(err) || pgConstraint(err) !== 'runs_pkey') throw err;
      row = { ...row, id: drawId() };
    }
  }
}

async function insertRunWith(
  db: Executor,
  run: Insertable<RunsTable>,
  command: { kind: EngineCommandKind; leased: boolean } | undefined,
  onlyIf: NoBudgetApplies | undefined,
): Promise<{ run: RunRow; command: DeliverableCommand | undefined } | undefined> {
  const recorded = command && { ...command, traceparent: activeTraceparent() };
  // A shape is told by what is undefined, not null: a workspace-wide guard leaves its project out.
  const guard = onlyIf && { workspaceId: onlyIf.workspaceId, projectId: onlyIf.projectId ?? undefined };
  const { rows } = await insertRunStatement(db, { ...run, event_seq: 1 }, recorded, guard);
  if (!rows[0]) return undefined;
  const { announced: _, command: recordedCommand, ...row } = rows[0];
  return { run: row, command: recordedCommand ?? undefined };
}

/**
 * The statement of insertRunWith, compiled once per shape: a run's row has optional columns, and the
 * statement is the larger part of a POST /v1/runs's own work in kysely.
 */
const insertRunStatement = compiledPerShape(
  (
    db: Executor,
    values: Insertable<RunsTable>,
    command: { kind: EngineCommandKind; leased: boolean; traceparent: string | null } | undefined,
    onlyIf: { workspaceId: string; projectId?: string } | undefined,
  ) => {
    const insert = onlyIf
      ? db
          .insertInto('runs')
          .columns(columnsOf(values))
          .expression(sql`SELECT ${valuesOf(values)} WHERE ${noBudgetApplies(db, onlyIf.workspaceId, onlyIf.projectId ?? null)}`)
          .returningAll()
      : db.insertInto('runs').values(values).returningAll();
    const recorded =
      command &&
      commandFor(db, engineCommandRow(command.kind, values.id, command.leased, command.traceparent)).returning([
        'id',
        'kind',
        'target_id',
        'attempts',
        'traceparent',
      ]);
    // The run is inserted with event_seq 1: its first event, numbered 1, is appended with it.
    const first = { type: 'run.status', data: sql`jsonb_build_object('status', run.status)` };
    return sql<RunRow & { announced: unknown; command: DeliverableCommand | null }>`
      WITH run AS (${insert}),
      ${appendedEvents(sql.ref('run.id'), [first])}${recorded ? sql`, command AS (${recorded})` : sql``}
      SELECT run.*, ${announceAppended} AS announced,
        ${recorded ? sql`(SELECT row_to_json(command) FROM command)` : sql`NULL`} AS command
      FROM run, appended`;
  },
);

/** The run's engine command, recorded only with the run (the insert may have been skipped). */
function commandFor(db: Executor, row: ReturnType<typeof engineCommandRow>) {
  return db
    .insertInto('engine_commands')
    .columns(columnsOf(row))
    .expression(sql`SELECT ${valuesOf(row)} FROM run`);
}

/**
 * A row's columns and values for an INSERT ... SELECT (one that may insert nothing). The SELECT's untyped
 * parameters take the target columns' types, as a VALUES list's would.
 */
const columnsOf = <T extends object>(row: T) => (Object.keys(row) as Array<keyof T & string>).filter((k) => row[k] !== undefined);
const valuesOf = <T extends object>(row: T) => sql.join(columnsOf(row).map((k) => row[k]));

export async function getRunRow(db: Executor, runId: string): Promise<RunRow | undefined> {
  return (await runById(db, runId)).rows[0];
}

// Every read of a run (an event stream's, a GET's, an activity's) reads this one: kysely compiles it once.
const runById = compiledOnce((db: Executor, runId: string) => db.selectFrom('runs').selectAll().where('id', '=', runId));

export async function getRunSteps(db: Executor, runId: string): Promise<RunStepRow[]> {
  return db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
}

export async function getRunStep(db: Executor, runId: string, stepIndex: number): Promise<RunStepRow | undefined> {
  return db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).where('step_index', '=', stepIndex).executeTakeFirst();
}

/** The runs a list or a bulk action chooses: GET /v1/runs's filters, always within one workspace. */
export interface RunFilter extends CreatedWindow {
  workspaceId: string;
  projectId?: string;
  status?: string;
  /** Runs of this workflow only. */
  templateId?: string;
  parentOrderId?: string;
  workerId?: string;
  /** Reruns of this run only. */
  rerunOf?: string;
  includeArchived?: boolean;
  /** Runs carrying every one of these tags. */
  tags?: string[];
  /** Runs whose metadata has each of these keys with exactly this value. */
  metadata?: Record<string, string>;
  /** Runs whose id, template id or name, or one of whose tags, contains this text, case aside; taken literally. */
  search?: string;
}

/** `text` as an ILIKE pattern that matches it anywhere, its own `%`, `_` and `\` taken as themselves. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export interface RunFilters extends RunFilter, PageRequest {}

function filteredRuns(db: Db, f: RunFilter) {
  const given = asked({
    project_id: f.projectId,
    status: f.status,
    template_id: f.templateId,
    parent_order_id: f.parentOrderId,
    worker_id: f.workerId,
    rerun_of: f.rerunOf,
  });
  let q = db
    .selectFrom('runs')
    .where('workspace_id', '=', f.workspaceId)
    .where((eb) => eb.and(given));
  if (!f.includeArchived) q = q.where('archived', '=', false);
  // Containment, so the tags' GIN index (migration 0025) serves it.
  if (f.tags?.length) q = q.where(sql<boolean>`tags @> ${f.tags}::text[]`);
  if (f.metadata && Object.keys(f.metadata).length) q = q.where(sql<boolean>`metadata @> ${JSON.stringify(f.metadata)}::jsonb`);
  q = createdWithin(q, f);
  if (f.search) {
    const pattern = containsPattern(f.search);
    // No index serves a substring match: it scans the workspace's runs the other filters leave, which the
    // list pages anyway. Each tag on its own, so that a search never matches across two of them.
    q = q.where(
      sql<boolean>`(id ILIKE ${pattern} ESCAPE '\\' OR template_id ILIKE ${pattern} ESCAPE '\\' OR template_name ILIKE ${pattern} ESCAPE '\\'
        OR EXISTS (SELECT 1 FROM unnest(tags) AS tag WHERE tag ILIKE ${pattern} ESCAPE '\\'))`,
    );
  }
  return q;
}

/** The matching runs' rows, newest first, without their steps; `total` counts every match. */
export async function listRunRows(db: Db, f: RunFilters): Promise<PageOf<RunRow>> {
  return pageOf(
    db,
    filteredRuns(db, f),
    (qb) => qb.selectAll(),
    [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ],
    f,
  );
}

/** A step's columns a list of runs reads: its input (up to 64 KB) is shown only on reads of one run. */
const LISTED_STEP_COLUMNS = [
  'run_id',
  'step_index',
  'step_id',
  'name',
  'kind',
  'status',
  'provider',
  'model',
  'duration_ms',
  'cost_actual_usd',
  'subworkflow_actual_usd',
  'output',
  'error',
  'error_code',
  'attempts',
  'started_at',
  'finished_at',
  'fallbacks',
] as const satisfies ReadonlyArray<keyof RunStepRow>;

/** A run's step as a list of runs has it: without its input. */
export type ListedRunStepRow = Omit<RunStepRow, 'input' | 'input_omitted'>;

/**
 * Newest first; `total` counts every match. The page, its total and the page's steps come from one snapshot,
 * so a run's totals agree with its steps (a step's settlement writes both in one statement).
 */
export async function listRuns(db: Db, f: RunFilters): Promise<{ items: RunRow[]; steps: ListedRunStepRow[]; total: number }> {
  return inOneSnapshot(db, async (ex) => {
    const { items, total } = await listRunRows(ex, f);
    const ids = items.map((r) => r.id);
    const steps = ids.length
      ? await ex.selectFrom('run_steps').select(LISTED_STEP_COLUMNS).where('run_id', 'in', ids).orderBy('step_index').execute()
      : [];
    return { items, steps, total };
  });
}

export async function getArtifact(db: Db, id: string) {
  return db.selectFrom('artifacts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Creates the run's artifact, or brings an artifact emitted earlier in the run up to date (content, QA,
 * status). Announces `artifact.created` only the first time. One statement.
 */
export async function writeArtifact(tx: Executor, runId: string, artifact: Insertable<Database['artifacts']>): Promise<void> {
  await sql`
    WITH written AS (${artifactUpsert(artifact)}),
    run AS (UPDATE runs SET event_seq = event_seq + 1 FROM written WHERE runs.id = ${runId} AND written.inserted RETURNING event_seq),
    ${appendedEvents(runId, [{ type: 'artifact.created', data: { artifactId: artifact.id } }])}
    SELECT ${announceAppended} AS announced FROM appended`.execute(tx);
}

/** Ships an artifact mid-run (emitsArtifact) so partial work survives a later failure. */
export async function emitArtifact(db: Executor, runId: string, artifact: Insertable<Database['artifacts']>): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await lockRun(tx, runId);
    if (!run || isTerminalRunStatus(run.status)) return;
    await writeArtifact(tx, runId, artifact);
    await tx.updateTable('runs').set({ artifact_id: artifact.id, updated_at: new Date() }).where('id', '=', runId).execute();
  });
}

/** Hides a terminal run from lists; a no-op when it is already archived. */
export async function archiveRun(db: Db, runId: string): Promise<RunRow | undefined> {
  return db.updateTable('runs').set({ archived: true, updated_at: new Date() }).where('id', '=', runId).returningAll().executeTakeFirst();
}

/** Moves a run, and the artifacts it made, to another project of the same workspace (or to none). */
export async function moveRunToProject(db: Db, runId: string, projectId: string | null): Promise<RunRow | undefined> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('runs')
      .set({ project_id: projectId, updated_at: new Date() })
      .where('id', '=', runId)
      .returningAll()
      .executeTakeFirst();
    await tx.updateTable('artifacts').set({ project_id: projectId }).where('run_id', '=', runId).execute();
    return row;
  });
}

/**
 * Runs not settled yet, by status (IN_FLIGHT_RUN_STATUSES): how many, and the age in seconds of the
 * oldest. A status with none has no row. The gateway's gauges read it on scrape.
 */
export async function runsInFlightByStatus(db: Executor): Promise<Array<{ status: string; runs: number; oldestAgeSeconds: number }>> {
  return db
    .selectFrom('runs')
    .select([
      'status',
      sql<number>`count(*)::int`.as('runs'),
      sql<number>`extract(epoch from now() - min(created_at))::float8`.as('oldestAgeSeconds'),
    ])
    .where('status', 'in', [...IN_FLIGHT_RUN_STATUSES])
    .groupBy('status')
    .execute();
}

export async function listRunDecisions(db: Executor, runIds: string[]) {
  if (runIds.length === 0) return [];
  return db.selectFrom('run_decisions').selectAll().where('run_id', 'in', runIds).orderBy('created_at').execute();
}
