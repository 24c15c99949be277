/**
 * Files belong to the artifact that wrote them. The engine assigns every stored file of an artifact a key
 * under that artifact's own prefix, `artifacts/{artifactType}/{artifactId}/{file}`, and the artifact's content
 * records it (`storageKey`, `rawStorageKey`). Because the prefix embeds the artifact's id, which the engine
 * chose, whether a key is an artifact's own file can be told from the key and the artifact alone: a key
 * copied from a URL, an intake or another tenant's artifact never passes for one. Only such keys are signed
 * into URLs or read by tools; knowing a key is never access.
 */

/** The content fields that name one of an artifact's stored files (the ones presented with a URL). */
export const ARTIFACT_FILE_FIELDS = ['storageKey', 'rawStorageKey'] as const;

export interface FileOwner {
  id: string;
  artifactType: string;
}

const FILE_NAME = /^[a-z0-9][a-z0-9-]*\.[a-z0-9]+$/;

/** The prefix every file of one artifact is stored under. */
export function artifactFilePrefix(owner: FileOwner): string {
  return `artifacts/${owner.artifactType}/${owner.id}/`;
}

/** The key of one of an artifact's files (`raw.webp`, `processed.mp4`). */
export function artifactFileKey(owner: FileOwner, file: string): string {
  if (!FILE_NAME.test(file)) throw new Error(`"${file}" is not a file name an artifact can have`);
  return `${artifactFilePrefix(owner)}${file}`;
}

/** Whether `key` is one of `owner`'s own files: directly under its prefix, with a plain file name. */
export function isArtifactFile(owner: FileOwner, key: unknown): key is string {
  if (typeof key !== 'string') return false;
  const prefix = artifactFilePrefix(owner);
  return key.startsWith(prefix) && FILE_NAME.test(key.slice(prefix.length));
}

/**
 * The file keys a step output or an artifact's content names that are not `owner`'s own files: the keys
 * that would let an artifact pass off somebody else's file as its own.
 */
export function foreignFileKeys(content: unknown, owner: FileOwner): string[] {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) return [];
  const record = content as Record<string, unknown>;
  return ARTIFACT_FILE_FIELDS.map((field) => record[field])
    .filter((key) => key !== undefined && key !== null && !isArtifactFile(owner, key))
    .map(String);
}
