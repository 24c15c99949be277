import { OpenAPIHono, z } from '@hono/zod-openapi';
import { getArtifact } from '@atelier/db';
import { Artifact, ListArtifactsQuery, ArtifactList } from '@atelier/contracts/catalog';
import { listArtifactsFor } from '../artifacts/list-artifacts.js';
import { visibleRecord } from '../access.js';
import { validationHook } from '../errors.js';
import { presentArtifact } from '../presenters/artifact.js';
import { fileLinks } from './files.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('artifacts');

export const artifactRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('GET /v1/artifacts', { query: ListArtifactsQuery }, { 200: ArtifactList }), async (c) =>
    c.json(await listArtifactsFor(callerOf(c), c.req.valid('query'), fileLinks(c)), 200),
  )
  .openapi(
    operation(
      'GET /v1/artifacts/{artifact_id}',
      {
        params: z.object({
          artifact_id: z
            .string()
            .max(64)
            .openapi({ param: { name: 'artifact_id', in: 'path' } }),
        }),
      },
      { 200: Artifact },
    ),
    async (c) => {
      const { artifact_id: artifactId } = c.req.valid('param');
      const found = await getArtifact(c.get('services').db, artifactId);
      const { row: artifact } = await visibleRecord(callerOf(c), found, { noun: 'artifact', id: artifactId });
      return c.json(await presentArtifact(artifact, fileLinks(c)), 200);
    },
  );
