// Regenerates @atelier/client's committed inputs from the gateway's route declarations (no stack
// needed): packages/client/openapi.json and packages/client/src/schema.d.ts.
//   node --conditions=atelier-source --import tsx scripts/generate-client.ts
import path from 'node:path';
import { writeClientFiles } from '../packages/client/scripts/generate';

const { openapiPath, schemaPath } = await writeClientFiles();
console.log(`wrote ${path.relative(process.cwd(), openapiPath)} and ${path.relative(process.cwd(), schemaPath)}`);
process.exit(0);
