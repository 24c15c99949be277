import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The one statement that writes a run's artifact: used by a move (run-moves.ts), a last step's settlement
 * (last-step.ts) and an artifact shipped mid-run (runs.ts). It imports nothing of the modules using it.
 */

type ArtifactInsert = Insertable<Database['artifacts']>;

/** The artifact columns a settlement writes; `content` and `qa` arrive as JSON text. */
const ARTIFACT_COLUMNS = [
  'id',
  'run_id',
  'workspace_id',
  'project_id',
  'template_id',
  'title',
  'status',
  'artifact_class',
  'artifact_type',
  'content',
  'qa',
  'source_report_artifact_id',
  'pack_id',
  'pack_member_id',
] as const satisfies ReadonlyArray<keyof ArtifactInsert>;
const JSONB_COLUMNS = new Set<string>(['content', 'qa']);
/** Columns an artifact written again (a draft shipped early, now settled) takes from the new write. */
const ARTIFACT_UPDATED = ['title', 'status', 'content', 'qa', 'source_report_artifact_id'] as const;

/** An artifact to write: its columns' values, or SQL for a value the statement reads (its run's, say). */
export type ArtifactWrite = { [C in (typeof ARTIFACT_COLUMNS)[number]]?: ArtifactInsert[C] | RawBuilder<unknown> };

/**
 * Inserts the artifact, or brings an earlier draft of it up to date, and says which (`inserted`). In a
 * move it writes only when the move is on (`from`: the move's `ok`).
 */
export function artifactUpsert(artifact: ArtifactWrite, from: RawBuilder<unknown> = sql``): RawBuilder<unknown> {
  const values = ARTIFACT_COLUMNS.map((c) => {
    const v = artifact[c] ?? null;
    return JSONB_COLUMNS.has(c) ? sql`${v}::jsonb` : sql`${v}`;
  });
  // `inserted`: xmax is 0 on a row this statement inserted, and set on one it updated.
  return sql`INSERT INTO artifacts (${sql.join(ARTIFACT_COLUMNS.map((c) => sql.ref(c)))})
    SELECT ${sql.join(values)} ${from}
    ON CONFLICT (id) DO UPDATE SET ${sql.join(ARTIFACT_UPDATED.map((c) => sql`${sql.ref(c)} = EXCLUDED.${sql.ref(c)}`))}
    RETURNING xmax = 0 AS inserted`;
}
