import type { z } from '@hono/zod-openapi';
import type { ListArtifactsQuery } from '@atelier/contracts/catalog';
import { listArtifacts } from '@atelier/db';
import { listAccess } from '../access.js';
import type { Caller } from '../caller.js';
import { type FileLinks, presentArtifact } from '../presenters/artifact.js';

/**
 * GET /v1/artifacts: the artifacts of the workspace the list reads (as GET /v1/runs chooses it), newest
 * first, each as GET /v1/artifacts/{artifact_id} shows it, signed file addresses included.
 */
export async function listArtifactsFor(caller: Caller, query: z.infer<typeof ListArtifactsQuery>, links: FileLinks) {
  const access = await listAccess(caller, query);
  const page = await listArtifacts(caller.services.db, { ...query, workspaceId: access.workspaceId });
  return { items: await Promise.all(page.items.map((a) => presentArtifact(a, links))), total: page.total };
}
