import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `sha256:<hex>` over the frozen definition and the resolved intake: equal hashes mean identical inputs. */
export function specVersionHash(definition: unknown, intake: unknown): string {
  return `sha256:${sha256Hex(canonicalJson({ definition, intake }))}`;
}
