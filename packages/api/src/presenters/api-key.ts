import type { ApiKeyRow } from '@atelier/db';

export const presentApiKey = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  workspaceId: k.workspace_id,
  createdAt: k.created_at.toISOString(),
  lastUsedAt: k.last_used_at?.toISOString() ?? null,
  revokedAt: k.revoked_at?.toISOString() ?? null,
});
