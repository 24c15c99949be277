import { type Db, type UserRow, defaultWorkspaceId } from '@atelier/db';

export async function presentUser(db: Db, u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    defaultWorkspaceId: (await defaultWorkspaceId(db, u.id)) ?? null,
    createdAt: u.created_at.toISOString(),
    updatedAt: u.updated_at.toISOString(),
    deletion:
      u.deletion_status && u.deletion_requested_at
        ? {
            status: u.deletion_status as 'pending' | 'approved',
            requestedAt: u.deletion_requested_at.toISOString(),
            reason: u.deletion_reason,
          }
        : null,
  };
}
