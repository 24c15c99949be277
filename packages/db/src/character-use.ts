import { type CharacterFacts, type CharacterUseRequest, type CharacterVerdict, judgeCharacterUse } from '@atelier/domain';
import type { Db } from './connect.js';

/**
 * Loads what the character gate judges — the character, its versions with their provider copies, the
 * subject its likeness versions depict and that subject's consents — and judges it. The gateway (for
 * `:check`, runs and orders) and the engine (before a waiting run starts) both ask here.
 */
export async function loadCharacterFacts(db: Db, workspaceId: string, characterId: string): Promise<CharacterFacts | null> {
  const character = await db
    .selectFrom('characters')
    .select(['id', 'format', 'archived_at'])
    .where('id', '=', characterId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!character) return null;
  const versions = await db
    .selectFrom('character_versions')
    .select(['id', 'number', 'subject_id', 'retired_at'])
    .where('character_id', '=', characterId)
    .execute();
  const bindings = versions.length
    ? await db
        .selectFrom('character_bindings')
        .selectAll()
        .where(
          'version_id',
          'in',
          versions.map((v) => v.id),
        )
        .execute()
    : [];
  const subjectId = versions.find((v) => v.subject_id)?.subject_id ?? null;
  const [subject, consents] = subjectId
    ? await Promise.all([
        db.selectFrom('subjects').select(['erased_at']).where('id', '=', subjectId).executeTakeFirst(),
        db
          .selectFrom('likeness_consents')
          .selectAll()
          .where('subject_id', '=', subjectId)
          .where('workspace_id', '=', workspaceId)
          .execute(),
      ])
    : [undefined, []];
  return {
    format: character.format,
    archived: character.archived_at !== null,
    versions: versions.map((v) => ({
      number: v.number,
      subjectId: v.subject_id,
      retired: v.retired_at !== null,
      bindings: bindings
        .filter((b) => b.version_id === v.id)
        .map((b) => ({
          provider: b.provider,
          assetKind: b.asset_kind,
          photoBased: b.photo_based,
          providerConsentStatus: b.provider_consent_status,
          disabled: b.disabled_at !== null,
        })),
    })),
    subject: subject ? { erased: subject.erased_at !== null } : null,
    consents: consents.map((c) => ({
      status: c.status,
      coversLikeness: c.covers_likeness,
      coversVoice: c.covers_voice,
      scope: c.scope,
      startsOn: c.starts_on,
      endsOn: c.ends_on,
    })),
  };
}

export async function checkCharacterUse(
  db: Db,
  use: CharacterUseRequest & { workspaceId: string; characterId: string },
): Promise<CharacterVerdict> {
  return judgeCharacterUse(await loadCharacterFacts(db, use.workspaceId, use.characterId), use);
}
