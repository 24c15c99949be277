import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Canonical JSON of each frozen definition object hashed so far. One definition is hashed with many intakes
 * (every run of a workflow version the gateway keeps in memory, every child of an order), and its canonical
 * form cost more than the rest of a run's insert; a definition is never changed once frozen, and one no
 * longer referenced drops out.
 */
const canonicalDefinitions = new WeakMap<object, string>();

function canonicalDefinition(definition: unknown): string {
  if (definition === null || typeof definition !== 'object') return canonicalJson(definition);
  let text = canonicalDefinitions.get(definition);
  if (text === undefined) {
    text = canonicalJson(definition);
    canonicalDefinitions.set(definition, text);
  }
  return text;
}

/**
 * `sha256:<hex>` over the frozen definition and the resolved intake: equal hashes mean identical inputs. The
 * text hashed is `canonicalJson({ definition, intake })`, put together from the definition's kept canonical form.
 */
export function specVersionHash(definition: unknown, intake: unknown): string {
  const definitionPart = definition === undefined ? '' : `"definition":${canonicalDefinition(definition)}`;
  const intakePart = intake === undefined ? '' : `"intake":${canonicalJson(intake)}`;
  return `sha256:${sha256Hex(`{${[definitionPart, intakePart].filter(Boolean).join(',')}}`)}`;
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
