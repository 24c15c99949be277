import type { ProjectRow } from '@atelier/db';

export const presentProject = (p: ProjectRow) => ({
  id: p.id,
  workspaceId: p.workspace_id,
  name: p.name,
  kind: p.kind as 'project' | 'brand',
  description: p.description,
  clientId: p.client_id,
  archived: p.archived,
  createdAt: p.created_at.toISOString(),
  updatedAt: p.updated_at.toISOString(),
});
