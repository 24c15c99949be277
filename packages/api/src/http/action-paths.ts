import { getPath } from 'hono/utils/url';

/**
 * Custom methods in the contract's style (`POST /v1/subjects/{id}:erase`, `.../versions/{n}:retire`) put a
 * colon inside the last path segment, which Hono's router would read as part of the parameter. A route is
 * declared in the contract's form (its reference key) and mounted with the action as its own segment
 * `.../{id}/~erase` (routePathOf); requests are routed on that form, and the OpenAPI document is written back
 * in the contract's form.
 */
const ACTION_SUFFIX = /^(\/v1\/.*[^/]):([a-z][a-z-]*)$/;

export function routedPath(request: Request): string {
  return routePathOf(getPath(request));
}

/** The route path of a path in the contract's form: `/v1/subjects/{subject_id}:erase` is routed as `.../~erase`. */
export const routePathOf = (contractPath: string): string => contractPath.replace(ACTION_SUFFIX, '$1/~$2');

/** Turns `.../~erase` back into `...:erase` in a generated OpenAPI document's paths. */
export function contractPaths<T extends { paths?: Record<string, unknown> }>(doc: T): T {
  if (!doc.paths) return doc;
  const paths = Object.fromEntries(Object.entries(doc.paths).map(([p, item]) => [p.replace(/\/~([a-z][a-z-]*)$/, ':$1'), item]));
  return { ...doc, paths };
}
