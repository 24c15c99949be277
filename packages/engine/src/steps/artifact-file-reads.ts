import { type FileOwner, isArtifactFile } from '@atelier/domain/artifact-files';
import { ObjectNotFoundError } from '@atelier/storage';
import { type FoundArtifact, type ToolContext, ToolInputError } from './tools.js';

/**
 * How a tool reads a stored file. A key is never access on its own (domain/artifact-files.ts): a tool reads
 * the files of the artifact its step is writing, or a file of another artifact that it names by id and that
 * the run's workspace can see, the same rule the API applies to a caller. A key anything else names (an
 * intake, a step's output, a copied URL) is refused without saying whether such a file exists.
 */
export type FileReadContext = Pick<ToolContext, 'storage' | 'artifactId' | 'artifactType' | 'findArtifact'>;

export interface FileRef {
  key: unknown;
  /** The artifact the file is said to belong to, when it is not the step's own. */
  artifactId?: unknown;
}

const notReadable = (key: unknown) =>
  new ToolInputError(
    `may not read "${String(key)}": a tool reads this artifact's own files, or the files of an artifact of this workspace named by its id`,
  );

/** The bytes of one of `artifact`'s own files, found in the workspace by a tool (FoundArtifact). */
export async function readFileOf(ctx: Pick<ToolContext, 'storage'>, artifact: FileOwner, key: unknown): Promise<Buffer> {
  if (!isArtifactFile(artifact, key)) throw notReadable(key);
  try {
    return await ctx.storage.get(key);
  } catch (err) {
    if (err instanceof ObjectNotFoundError) throw new ToolInputError(`found no file at ${key}: the artifact ${artifact.id} lost it`);
    throw err;
  }
}

/** The bytes a file reference names, read under the rule above. */
export async function readArtifactFile(ctx: FileReadContext, ref: FileRef): Promise<Buffer> {
  const own = { id: ctx.artifactId, artifactType: ctx.artifactType };
  if (isArtifactFile(own, ref.key)) return readFileOf(ctx, own, ref.key);
  if (typeof ref.artifactId !== 'string' || !ctx.findArtifact) throw notReadable(ref.key);
  const artifact: FoundArtifact | undefined = await ctx.findArtifact(ref.artifactId);
  if (!artifact) throw notReadable(ref.key);
  return readFileOf(ctx, artifact, ref.key);
}
