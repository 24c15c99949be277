import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { getArtifact } from '@atelier/db';
import { Artifact, ListArtifactsQuery } from '@atelier/contracts/catalog';
import { listOf } from '@atelier/contracts/common';
import { listArtifactsFor } from '../artifacts/list-artifacts.js';
import { visibleRecord } from '../access.js';
import { errorResponses, validationHook } from '../errors.js';
import { presentArtifact } from '../presenters/artifact.js';
import { fileLinks } from './files.js';
import type { AppEnv } from '../services.js';
import { json, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';

export const artifactRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('artifacts'),
      method: 'get',
      path: '/v1/artifacts',
      summary: 'Artifacts of a workspace, newest first, each as GET /v1/artifacts/{artifact_id} shows it',
      description:
        "The workspace is the one named, else the one the project is in, else the key's or the caller's default (as GET /v1/runs). " +
        'createdAfter is inclusive and createdBefore exclusive.',
      request: { query: ListArtifactsQuery },
      responses: { 200: { description: 'Artifacts', ...json(listOf(Artifact, 'ArtifactList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => c.json(await listArtifactsFor(callerOf(c), c.req.valid('query'), fileLinks(c)), 200),
  )
  .openapi(
    createRoute({
      ...secured('artifacts'),
      method: 'get',
      path: '/v1/artifacts/{artifact_id}',
      summary: 'An artifact with its content, QA record and provenance',
      description: `An artifact with its content (by class: visual, video, research or knowledge), its QA record and its provenance (runId, templateId). ${WHO_MAY_CALL.member}`,
      request: {
        params: z.object({
          artifact_id: z
            .string()
            .max(64)
            .openapi({ param: { name: 'artifact_id', in: 'path' } }),
        }),
      },
      responses: { 200: { description: 'The artifact', ...json(Artifact) }, ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const { artifact_id: artifactId } = c.req.valid('param');
      const found = await getArtifact(c.get('services').db, artifactId);
      const { row: artifact } = await visibleRecord(callerOf(c), found, { noun: 'artifact', id: artifactId });
      return c.json(await presentArtifact(artifact, fileLinks(c)), 200);
    },
  );
