/** Tables of characters, subjects and likeness consents (migration 2026-11-22T1310-characters-consent). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface CharactersSchema {}
