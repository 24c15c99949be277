import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './hashing.js';

/**
 * Idempotent creates (clients, characters): a retry carries the same `requestId` and the same body.
 * The fingerprint is what "the same body" means — canonical JSON, so key order and absent-vs-undefined
 * members do not matter, and the requestId itself is left out.
 */
export function requestFingerprint(body: Record<string, unknown>): string {
  const { requestId: _ignored, ...rest } = body;
  return sha256Hex(canonicalJson(rest));
}
