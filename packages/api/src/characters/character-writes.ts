import {
  type CharacterRow,
  bindingsOfVersions,
  characterReferences,
  characterVersions,
  checkCharacterUse,
  getCharacter,
  getSubject,
  insertCharacterVersion,
  lockCharacter,
  updateCharacter,
} from '@atelier/db';
import { newUuid, utcDay } from '@atelier/domain';
import { visibleRecord } from '../access.js';
import { type ErrorCode, type NotFoundNoun, fail } from '../errors.js';
import { expectEtag, guardedWrite, newEtag } from '../http/etag.js';
import { presentCharacter } from '../presenters/character.js';
import type { Caller } from '../caller.js';

/** What the character endpoints share: access, the full record, etag checks and freezing a version. */
export async function visibleCharacter(
  caller: Caller,
  id: string,
  write: boolean,
  /** What a 404 names: the character, or what the caller asked for through it (a binding). */
  missing: { noun: NotFoundNoun; id: string } = { noun: 'character', id },
): Promise<CharacterRow> {
  return (await visibleRecord(caller, await getCharacter(caller.services.db, id), missing, write)).row;
}

/** The character as GET answers it: references, latest version with its provider copies, usable today. */
export async function characterRecord(caller: Caller, character: CharacterRow) {
  const { db } = caller.services;
  const [references, versions, usableToday] = await Promise.all([
    characterReferences(db, character.id),
    characterVersions(db, character.id),
    checkCharacterUse(db, { workspaceId: character.workspace_id, characterId: character.id, media: 'image', providers: [], on: utcDay() }),
  ]);
  const latest = versions[0];
  const bindings = latest ? await bindingsOfVersions(db, [latest.id]) : [];
  return presentCharacter(character, { references, latest, bindings, usableToday });
}

/** The character as it now stands, re-read: what a 409 etag_mismatch carries. */
export async function currentCharacterRecord(caller: Caller, id: string) {
  return characterRecord(caller, (await getCharacter(caller.services.db, id))!);
}

/**
 * Gives the character a new etag (its references, versions or copies changed); 409 when `expected` is
 * stale. The route sends the new etag.
 */
export function touchCharacter(caller: Caller, character: CharacterRow, expected: string | undefined): Promise<CharacterRow> {
  return guardedWrite(
    () => updateCharacter(caller.services.db, character.id, expected, { etag: newEtag() }),
    () => currentCharacterRecord(caller, character.id),
  );
}

const notReady = (code: ErrorCode, message: string) => fail.code(code, { message });

/**
 * Freezes the draft as the next version. A likeness names its subject once (the first version) and every
 * later version depicts the same person; the character row is locked so concurrent freezes number in turn.
 */
export async function freezeVersion(
  caller: Caller,
  characterId: string,
  body: { subjectId?: string; note?: string },
  expected: string | undefined,
) {
  const { db } = caller.services;
  return db.transaction().execute(async (tx) => {
    const character = (await lockCharacter(tx, characterId))!;
    await expectEtag(expected, character, (current) => characterRecord(caller, current));
    if (character.archived_at) throw fail.code('character_archived', { message: 'an archived character cannot be frozen' });
    const references = await characterReferences(tx, characterId);
    if (references.length === 0) throw notReady('no_references', 'add at least one reference before freezing a version');
    const versions = await characterVersions(tx, characterId);
    let subjectId: string | null = null;
    if (character.format === 'likeness') {
      const earlier = versions.find((v) => v.subject_id)?.subject_id ?? null;
      subjectId = body.subjectId ?? earlier;
      if (!subjectId) throw notReady('subject_required', 'a likeness version names the person it depicts (subjectId)');
      if (earlier && subjectId !== earlier)
        throw notReady('subject_changed', `earlier versions depict subject ${earlier}; a likeness keeps the same person`);
      const subject = await getSubject(tx, subjectId);
      if (!subject || subject.workspace_id !== character.workspace_id)
        throw notReady('subject_not_found', `subject ${subjectId} not found in this workspace`);
      if (subject.erased_at) throw notReady('subject_erased', `subject ${subjectId} was erased`);
    } else if (body.subjectId) {
      throw notReady('subject_not_allowed', 'a synthetic character depicts nobody: it takes no subjectId');
    }
    const version = await insertCharacterVersion(tx, {
      id: newUuid(),
      character_id: characterId,
      workspace_id: character.workspace_id,
      number: (versions[0]?.number ?? 0) + 1,
      format: character.format,
      name: character.name,
      persona: character.persona,
      references: references.map((r) => ({ id: r.id, role: r.role, artifactId: r.artifact_id })),
      subject_id: subjectId,
      note: body.note ?? null,
      created_by: caller.principal.userId,
    });
    const touched = (await updateCharacter(tx, characterId, undefined, { etag: newEtag() }))!;
    return { version, character: touched };
  });
}
