import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { components } from './schema.js';

type Artifact = components['schemas']['Artifact'];

export interface DownloadedFile {
  /** Which content field named it: url (the artifact's file) or rawUrl (the file before processing). */
  field: string;
  url: string;
  path: string;
  bytes: number;
  contentType: string | null;
}

export interface DownloadedArtifact {
  artifact: Artifact;
  /** artifact.json: the artifact as the API returned it (its content is the whole result for text artifacts). */
  metadataPath: string;
  files: DownloadedFile[];
}

/** File-name-safe last segment of a storage key or URL path. */
function fileName(candidate: unknown, fallback: string): string {
  const base = typeof candidate === 'string' ? path.posix.basename(candidate.split('?')[0] ?? '') : '';
  const safe = base.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe && safe !== '.' && safe !== '..' ? safe : fallback;
}

/**
 * Writes artifact.json, then fetches each file URL in the artifact's content (`url`, and `rawUrl` when
 * the gateway gives one) into `dir`, named after its storage key (processed.webp, raw.webp, ...).
 */
export async function downloadArtifactFiles(
  artifact: Artifact,
  dir: string,
  doFetch: typeof globalThis.fetch,
): Promise<DownloadedArtifact> {
  await mkdir(dir, { recursive: true });
  const metadataPath = path.join(dir, 'artifact.json');
  await writeFile(metadataPath, `${JSON.stringify(artifact, null, 2)}\n`);
  const content = artifact.content as Record<string, unknown>;
  const wanted: Array<{ field: string; url: string; name: string }> = [];
  if (typeof content.url === 'string')
    wanted.push({ field: 'url', url: content.url, name: fileName(content.storageKey ?? new URL(content.url).pathname, 'file') });
  if (typeof content.rawUrl === 'string')
    wanted.push({ field: 'rawUrl', url: content.rawUrl, name: fileName(content.rawStorageKey ?? new URL(content.rawUrl).pathname, 'raw') });
  const files: DownloadedFile[] = [];
  const used = new Set<string>(['artifact.json']);
  for (const w of wanted) {
    let name = w.name;
    if (used.has(name)) name = `${w.field}-${name}`;
    used.add(name);
    // Signed file URLs are capabilities: no credential goes with them (they may redirect to cloud storage).
    const res = await doFetch(w.url);
    if (!res.ok) throw new Error(`downloading ${w.field} of artifact ${artifact.id} answered ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const target = path.join(dir, name);
    await writeFile(target, bytes);
    files.push({ field: w.field, url: w.url, path: target, bytes: bytes.length, contentType: res.headers.get('content-type') });
  }
  return { artifact, metadataPath, files };
}
