import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A certificate for `localhost` and 127.0.0.1 (self-signed, valid until 2126) for loopback servers that
 * stand in for providers over TLS, as real providers are reached. Only a process told to trust it does: a
 * transport's `ca` in tests, NODE_EXTRA_CA_CERTS for a worker a bench starts.
 */
export const LOOPBACK_TLS = {
  certPath: fileURLToPath(new URL('./tls/localhost.crt', import.meta.url)),
  keyPath: fileURLToPath(new URL('./tls/localhost.key', import.meta.url)),
  cert: () => readFileSync(LOOPBACK_TLS.certPath),
  key: () => readFileSync(LOOPBACK_TLS.keyPath),
};
