import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness';
import {
  type GeneratedModels,
  OPENAPI_PYTHON_CLIENT_VERSION,
  PYTHON_GENERATED_DIR,
  PYTHON_REGENERATE_COMMAND,
  ensureOpenapiPythonClient,
  generatePythonModels,
  readTree,
  treeDifferences,
} from '../support/python-client';

/**
 * The served /openapi.json through the pinned openapi-python-client (PyPI, installed into .tools/): every schema
 * and operation generates with no warning (an "Unable to process schema" or a skipped response is a model Python
 * users silently lack), and clients/python's committed models are exactly what it generates today.
 */
let h: Harness;
let generated: GeneratedModels;
beforeAll(async () => {
  await ensureOpenapiPythonClient((line) => console.log(line));
  h = await startHarness({ worker: false });
  const doc = await h.request('GET', '/openapi.json');
  expect(doc.status).toBe(200);
  generated = await generatePythonModels(doc.body);
}, 240_000);
afterAll(async () => {
  await h?.stop();
  if (generated) await rm(generated.root, { recursive: true, force: true });
});

describe(`/openapi.json under openapi-python-client ${OPENAPI_PYTHON_CLIENT_VERSION}`, () => {
  it('generates every schema and operation with no warning', () => {
    expect(generated.code, generated.output).toBe(0);
    // A clean run prints exactly one line; any warning, skipped schema or failed post hook adds more.
    expect(generated.output.trim().split('\n'), generated.output).toEqual([`Generating ${generated.dir}`]);
  });

  it('matches the models committed in clients/python', async () => {
    const stale = treeDifferences(await readTree(generated.dir), await readTree(PYTHON_GENERATED_DIR));
    expect(
      stale,
      `clients/python/src/atelier/_generated differs from what the gateway's document generates: run \`${PYTHON_REGENERATE_COMMAND}\` from the repository root and commit the result`,
    ).toEqual([]);
  });
});
