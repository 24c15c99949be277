import { type Kysely, sql } from 'kysely';

/**
 * Every committed change to the tables gateways keep reads of in memory (the workflow catalog, API keys
 * and memberships) is announced on `atelier_table_changes`, the table's name as payload, whichever
 * process or tool made it: a gateway forgets what it kept of a table when told (KeptReads).
 * Statement-level, so a statement costs one notification however many rows it touches (cascades
 * included); PostgreSQL folds repeats within a transaction into one.
 */
const TABLES = ['workflows', 'workflow_versions', 'api_keys', 'memberships'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION atelier_announce_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('atelier_table_changes', TG_TABLE_NAME);
      RETURN NULL;
    END $$`.execute(db);
  for (const table of TABLES) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_announce_change`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION atelier_announce_table_change()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await sql`DROP TRIGGER ${sql.id(`${table}_announce_change`)} ON ${sql.table(table)}`.execute(db);
  await sql`DROP FUNCTION atelier_announce_table_change()`.execute(db);
}
