import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH, REGENERATE_COMMAND, SCHEMA_PATH, generateClientFiles } from '../scripts/generate.js';

/** The committed document and types must be what today's gateway publishes. */
describe('@atelier/client generated files', () => {
  it('match the gateway /openapi.json and openapi-typescript output', async () => {
    const fresh = await generateClientFiles();
    const [openapiJson, schemaDts] = await Promise.all([
      readFile(OPENAPI_PATH, 'utf8').catch(() => ''),
      readFile(SCHEMA_PATH, 'utf8').catch(() => ''),
    ]);
    const stale = [
      openapiJson !== fresh.openapiJson ? 'packages/client/openapi.json' : '',
      schemaDts !== fresh.schemaDts ? 'packages/client/src/schema.d.ts' : '',
    ].filter(Boolean);
    expect(
      stale,
      `${stale.join(' and ')} differ from what the gateway publishes now: run \`${REGENERATE_COMMAND}\` from the repository root and commit the result`,
    ).toEqual([]);
  });
});
