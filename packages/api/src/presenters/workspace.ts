import type { MemberRow, WorkspaceWithRole } from '@atelier/db';

export const presentWorkspace = (w: WorkspaceWithRole) => ({
  id: w.id,
  name: w.name,
  personal: w.personal,
  role: w.role,
  createdAt: w.created_at.toISOString(),
});

export const presentMember = (m: MemberRow) => ({
  userId: m.user_id,
  email: m.email,
  name: m.name,
  role: m.role,
  joinedAt: m.created_at.toISOString(),
});
