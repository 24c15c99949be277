import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Db, Executor } from './connect.js';
import type { Database } from './schema.js';
import type {
  CharacterBindingsTable,
  CharacterReferencesTable,
  CharacterVersionsTable,
  CharactersTable,
  FrozenReference,
} from './schema-characters.js';
import { createOnce, editRecord } from './managed-records.js';
import { pageOf } from './paging.js';

/** Characters: the draft (name, persona, references), frozen versions and their provider copies. */
export type CharacterRow = Selectable<CharactersTable>;
export type CharacterReferenceRow = Selectable<CharacterReferencesTable>;
export type CharacterVersionRow = Selectable<CharacterVersionsTable>;
export type CharacterBindingRow = Selectable<CharacterBindingsTable>;

/** Creates a character once per requestId (managed-records.ts). */
export async function createCharacterOnce(
  db: Db,
  row: Insertable<CharactersTable>,
): Promise<{ character: CharacterRow; created: boolean }> {
  const { row: character, created } = await createOnce(db, 'characters', row);
  return { character, created };
}

export async function getCharacter(db: Executor, id: string): Promise<CharacterRow | undefined> {
  return db.selectFrom('characters').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listCharacters(
  db: Db,
  f: { workspaceId: string; projectId?: string; includeArchived: boolean; offset: number; limit: number },
) {
  let base = db.selectFrom('characters').where('workspace_id', '=', f.workspaceId);
  if (f.projectId) base = base.where('project_id', '=', f.projectId);
  if (!f.includeArchived) base = base.where('archived_at', 'is', null);
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], f);
}

/** Changes the draft only when the stored etag is still `expectedEtag` (undefined otherwise). */
export function updateCharacter(
  db: Executor,
  id: string,
  expectedEtag: string | undefined,
  patch: Partial<Pick<Insertable<CharactersTable>, 'name' | 'persona' | 'archived_at'>> & { etag: string },
): Promise<CharacterRow | undefined> {
  return editRecord(db, 'characters', id, expectedEtag, patch);
}

export async function characterReferences(db: Executor, characterId: string): Promise<CharacterReferenceRow[]> {
  return db
    .selectFrom('character_references')
    .selectAll()
    .where('character_id', '=', characterId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function addCharacterReference(db: Executor, row: Insertable<CharacterReferencesTable>): Promise<CharacterReferenceRow> {
  return db.insertInto('character_references').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function removeCharacterReference(db: Executor, characterId: string, referenceId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('character_references')
    .where('character_id', '=', characterId)
    .where('id', '=', referenceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function characterVersions(db: Executor, characterId: string): Promise<CharacterVersionRow[]> {
  return db.selectFrom('character_versions').selectAll().where('character_id', '=', characterId).orderBy('number', 'desc').execute();
}

export async function getCharacterVersion(db: Executor, characterId: string, number: number): Promise<CharacterVersionRow | undefined> {
  return db
    .selectFrom('character_versions')
    .selectAll()
    .where('character_id', '=', characterId)
    .where('number', '=', number)
    .executeTakeFirst();
}

/** Locks the character so that two freezes number their versions one after the other. */
export async function lockCharacter(tx: Transaction<Database>, id: string): Promise<CharacterRow | undefined> {
  return tx.selectFrom('characters').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertCharacterVersion(
  tx: Transaction<Database>,
  row: Omit<Insertable<CharacterVersionsTable>, 'references' | 'persona'> & {
    references: FrozenReference[];
    persona: Record<string, unknown>;
  },
): Promise<CharacterVersionRow> {
  return tx
    .insertInto('character_versions')
    .values({ ...row, references: JSON.stringify(row.references), persona: JSON.stringify(row.persona) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function retireCharacterVersion(db: Executor, versionId: string, reason: string): Promise<CharacterVersionRow | undefined> {
  return db
    .updateTable('character_versions')
    .set({ retired_at: new Date(), retired_reason: reason })
    .where('id', '=', versionId)
    .where('retired_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function bindingsOfVersions(db: Executor, versionIds: string[]): Promise<CharacterBindingRow[]> {
  if (versionIds.length === 0) return [];
  return db
    .selectFrom('character_bindings')
    .selectAll()
    .where('version_id', 'in', versionIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function createCharacterBinding(db: Executor, row: Insertable<CharacterBindingsTable>): Promise<CharacterBindingRow> {
  return db.insertInto('character_bindings').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getCharacterBinding(db: Executor, id: string) {
  return db
    .selectFrom('character_bindings as b')
    .innerJoin('character_versions as v', 'v.id', 'b.version_id')
    .selectAll('b')
    .select(['v.character_id', 'v.number as version_number'])
    .where('b.id', '=', id)
    .executeTakeFirst();
}

export function updateCharacterBinding(
  db: Executor,
  id: string,
  expectedEtag: string | undefined,
  patch: Partial<Pick<Insertable<CharacterBindingsTable>, 'provider_consent_status' | 'disabled_at' | 'photo_based'>> & { etag: string },
): Promise<CharacterBindingRow | undefined> {
  return editRecord(db, 'character_bindings', id, expectedEtag, patch);
}

export async function projectHasCharacters(db: Executor, projectId: string): Promise<boolean> {
  const row = await db.selectFrom('characters').select('id').where('project_id', '=', projectId).limit(1).executeTakeFirst();
  return row !== undefined;
}
