/**
 * An artifact's statuses and classes. Apart from catalog.ts so that the CLI can offer them without loading zod
 * (as order-statuses.ts and run-statuses.ts are).
 */
export const ARTIFACT_STATUS_VALUES = ['review', 'approved', 'rejected', 'draft', 'ready'] as const;
export const ARTIFACT_CLASS_VALUES = ['visual', 'video', 'research', 'knowledge'] as const;
