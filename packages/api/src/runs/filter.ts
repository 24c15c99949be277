import type { RunFilter } from '@atelier/db';

/** A run filter as the API spells it, in GET /v1/runs's query or a bulk action's body (RUN_FILTER_FIELDS). */
type ApiRunFilter = Omit<RunFilter, 'workspaceId' | 'tags' | 'search'> & { tag?: string[]; q?: string };

/**
 * The API's run filter in the database's terms, within the workspace listAccess chose. The list and the bulk
 * actions both go through here, so a filter field added to the contract reaches both rather than one of them.
 */
export function runFilterOf(filter: ApiRunFilter, workspaceId: string): RunFilter {
  const { tag, q, ...fields } = filter;
  return { ...fields, tags: tag, search: q, workspaceId };
}
