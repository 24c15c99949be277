import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { getArtifact } from '@atelier/db';
import { Artifact } from '@atelier/contracts/catalog';
import { resourceAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { presentArtifact } from '../presenters/artifact.js';
import { fileLinks } from './files.js';
import type { AppEnv } from '../services.js';
import { json, secured } from '../http/route.js';
import { callerOf } from '../http/caller.js';

export const artifactRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
  createRoute({
    ...secured('artifacts'),
    method: 'get',
    path: '/v1/artifacts/{artifact_id}',
    summary: 'An artifact with its content, QA record and provenance',
    description:
      "An artifact with its content (by class: visual, video, research or knowledge), its QA record and its provenance (runId, templateId). Any member of the workspace may call it; a workspace-bound API key reaching another workspace gets 403, and a resource outside the caller's workspaces is 404.",
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
    const artifact = await getArtifact(c.get('services').db, artifactId);
    if (!artifact) throw fail.notFound('artifact', artifactId);
    await resourceAccess(callerOf(c), artifact.workspace_id, 'artifact', artifactId);
    return c.json(await presentArtifact(artifact, fileLinks(c)), 200);
  },
);
