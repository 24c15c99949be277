import { type Kysely, sql } from 'kysely';

/**
 * Character ids take the contract's form, `char-<id>`. Ids issued before stay valid (a UUID is text
 * too), so the id columns become text; the links keep their composite (id, workspace) keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE character_references DROP CONSTRAINT character_references_character_id_workspace_id_fkey;
    ALTER TABLE character_versions DROP CONSTRAINT character_versions_character_id_workspace_id_fkey;
    ALTER TABLE characters ALTER COLUMN id TYPE text;
    ALTER TABLE character_references ALTER COLUMN character_id TYPE text;
    ALTER TABLE character_versions ALTER COLUMN character_id TYPE text;
    ALTER TABLE character_references ADD CONSTRAINT character_references_character_id_workspace_id_fkey
      FOREIGN KEY (character_id, workspace_id) REFERENCES characters (id, workspace_id) ON DELETE CASCADE;
    ALTER TABLE character_versions ADD CONSTRAINT character_versions_character_id_workspace_id_fkey
      FOREIGN KEY (character_id, workspace_id) REFERENCES characters (id, workspace_id) ON DELETE RESTRICT;
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('character ids stay text: ids of the char-<id> form cannot become UUIDs again');
}
