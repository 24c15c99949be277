import { checkCharacterUse, type Db } from '@atelier/db';
import { type Bindings, runCharacterUse, utcDay } from '@atelier/domain';
import { fail } from '../errors.js';

/**
 * The character gate at intake: every run and order whose intake names a `characterId` is judged here
 * before pricing, so a refused use records nothing and costs nothing. The engine judges the same use
 * again before a waiting run starts (consent can be withdrawn in between).
 */
export interface CharacterIntake {
  workspaceId: string;
  intake: Record<string, unknown>;
  artifactClass: string;
  /** Role to model id: the providers the likeness would be sent to. */
  bindings: Bindings;
}

/** Throws 422 character_not_usable with the gate's reasons; does nothing when the intake names no character. */
export async function refuseUnusableCharacter(db: Db, use: CharacterIntake, what: string): Promise<void> {
  const characterId = use.intake.characterId;
  if (typeof characterId !== 'string' || !characterId) return;
  const verdict = await checkCharacterUse(db, {
    workspaceId: use.workspaceId,
    characterId,
    ...runCharacterUse({ artifactClass: use.artifactClass, bindings: use.bindings, intake: use.intake, on: utcDay() }),
  });
  if (!verdict.usable) {
    throw fail.code('character_not_usable', {
      reasons: verdict.reasons,
      characterId,
      message: `character ${characterId} cannot be used for this ${what}: ${verdict.reasons.join(', ')}`,
    });
  }
}
