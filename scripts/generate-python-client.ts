// Regenerates the Python client's committed models (clients/python/src/atelier/_generated) from the gateway's
// route declarations (no stack needed) with the pinned openapi-python-client, refusing on any generator warning.
//   node --conditions=atelier-source --import tsx scripts/generate-python-client.ts
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fetchOpenApiDocument } from '../packages/client/scripts/generate';
import { PYTHON_GENERATED_DIR, generatePythonModels } from '../test/support/python-client';

const generated = await generatePythonModels(await fetchOpenApiDocument(), (line) => console.log(line));
try {
  if (generated.code !== 0 || generated.output.trim() !== `Generating ${generated.dir}`) {
    console.error(generated.output);
    throw new Error('openapi-python-client did not generate cleanly; fix the document (packages/contracts) first');
  }
  await rm(PYTHON_GENERATED_DIR, { recursive: true, force: true });
  await cp(generated.dir, PYTHON_GENERATED_DIR, { recursive: true });
  console.log(`wrote ${path.relative(process.cwd(), PYTHON_GENERATED_DIR)}`);
} finally {
  await rm(generated.root, { recursive: true, force: true });
}
process.exit(0);
