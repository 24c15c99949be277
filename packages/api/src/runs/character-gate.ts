/**
 * The character gate's seam: every run and order whose intake names a `characterId` is checked here
 * before pricing. Until characters exist as records (the characters issue), no character id can be
 * found, so a run naming one is refused as not usable.
 */
export interface CharacterUse {
  workspaceId: string;
  characterId: string;
  templateId: string;
  /** Providers the run's bindings would send the likeness to. */
  providers: string[];
}

export interface CharacterVerdict {
  usable: boolean;
  reasons: string[];
}

export type CharacterGate = (use: CharacterUse) => Promise<CharacterVerdict>;

export const characterGateWithoutCharacters: CharacterGate = async () => ({ usable: false, reasons: ['character_not_found'] });
