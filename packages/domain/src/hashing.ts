import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `sha256:<hex>` over the frozen definition and the resolved intake: equal hashes mean identical inputs. */
export function specVersionHash(definition: unknown, intake: unknown): string {
  return `sha256:${sha256Hex(canonicalJson({ definition, intake }))}`;
}

/**
 * `sha256:<hex>` over a frozen definition alone: equal hashes mean the same definition, so workers cache a
 * definition once for every run of it (the run workflow's input names it by this hash). Taken over the JSON
 * text as stored, not canonical JSON: it is computed for every run handed to Temporal, canonical JSON costs
 * four times as much, and a definition read back from jsonb always has its keys in one order (a second
 * spelling of one definition would only cost a second cache entry).
 */
export function definitionHash(definition: unknown): string {
  return `sha256:${sha256Hex(JSON.stringify(definition))}`;
}
