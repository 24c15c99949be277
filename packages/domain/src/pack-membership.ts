/**
 * An order child's place in its pack: its artifact joins the order's plan artifact under a member id that
 * stays the same when the child is re-rolled (it is made from the child's dedupe key). Pure; the database's
 * one-statement settlement renders the same rule in SQL from these constants (db/last-step.ts).
 */
export interface PackMembership {
  packId: string;
  memberId: string;
}

export const PACK_MEMBER_PREFIX = 'member-';
/** How much of the dedupe key the member id keeps. */
export const PACK_MEMBER_KEY_LENGTH = 16;

export function packMembership(planArtifactId: string | null | undefined, dedupeKey: string | null): PackMembership | null {
  return planArtifactId && dedupeKey
    ? { packId: planArtifactId, memberId: `${PACK_MEMBER_PREFIX}${dedupeKey.slice(0, PACK_MEMBER_KEY_LENGTH)}` }
    : null;
}
