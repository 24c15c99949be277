import { tagsInOrder } from '../reference/reference.js';
import { contractPaths } from './action-paths.js';

type Operation = { requestBody?: unknown; parameters?: Array<{ in?: string }>; responses?: Record<string, unknown> };
type Document = { paths?: Record<string, unknown> };

const content = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });

/**
 * Answers every route can give before its handler runs, declared on each operation so that a generated
 * client knows them: the input guard's 413 and 415 for bodies, 422 for a query it refuses, 404 for a
 * path naming nothing, and 503 while the database or the engine is out of reach.
 */
const EDGE_RESPONSES: Array<{ status: string; description: string; body?: string; applies: (op: Operation, path: string) => boolean }> = [
  { status: '413', description: 'The request body is larger than the limit', applies: (op) => op.requestBody !== undefined },
  { status: '415', description: 'JSON bodies are read as UTF-8 only', applies: (op) => op.requestBody !== undefined },
  {
    status: '422',
    description: 'Validation failure',
    body: 'RequestValidationError',
    applies: (op) => op.requestBody !== undefined || (op.parameters ?? []).length > 0,
  },
  { status: '404', description: "Not found, or outside the caller's workspace", applies: (_op, path) => path.includes('{') },
  {
    status: '503',
    description: 'The database or the execution engine is unavailable; retry after Retry-After seconds',
    applies: (_op, path) => path.startsWith('/v1/'),
  },
];

export function withEdgeResponses<T extends Document>(doc: T): T {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      op.responses ??= {};
      for (const edge of EDGE_RESPONSES) {
        if (edge.applies(op, path) && !(edge.status in op.responses))
          op.responses[edge.status] = { description: edge.description, content: content(edge.body ?? 'MessageError') };
      }
    }
  }
  return doc;
}

/** The document /openapi.json serves: generated from the route schemas, in the contract's path forms. */
export const publishedDocument = <T extends Document>(generated: T): T => ({
  ...withOperationIds(withEdgeResponses(contractPaths(generated))),
  tags: tagsInOrder().map((reference) => ({ name: reference.name, description: reference.description })),
});

const ACTIONS = new Set([
  'accept-gap',
  'activate',
  'archive',
  'cancel',
  'check',
  'confirm',
  'decision',
  'deprecate',
  'dry-run',
  'erase',
  'estimate',
  'finalize',
  'import',
  'login',
  'logout',
  'publish',
  'refresh',
  'register',
  'request',
  'rerun',
  'restore',
  'resume',
  'retire',
  'retry-failed',
  'revoke',
  'rotate-secret',
  'start',
  'submit',
  'suspend',
  'unpublish',
  'verify',
]);
const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
const wordsOf = (segment: string) => segment.split(/[-_]/).filter(Boolean);
const singular = (word: string) =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

/**
 * A stable operationId from the method and the contract's path, so generated clients get readable
 * names: `GET /v1/runs` → listRuns, `GET /v1/runs/{run_id}` → getRun, `POST /v1/runs/{run_id}/cancel` →
 * cancelRun, `POST /v1/characters/{character_id}:check` → checkCharacter.
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path
    .replace(/^\/v1\//, '')
    .replace(/^\//, '')
    .split('/');
  const last = segments.at(-1) ?? '';
  let action: string | undefined;
  const colon = last.indexOf(':');
  if (colon > 0) {
    action = last.slice(colon + 1);
    segments[segments.length - 1] = last.slice(0, colon);
  } else if (method === 'post' && ACTIONS.has(last)) {
    action = last;
    segments.pop();
  }
  const endsWithParam = (segments.at(-1) ?? '').startsWith('{');
  const nouns = segments.filter((s) => !s.startsWith('{') && s !== 'auth');
  const words = nouns.flatMap((noun, i) => {
    const w = wordsOf(noun);
    // The collection a request lists keeps its plural; every other noun names one thing.
    const plural = !action && method === 'get' && !endsWithParam && i === nouns.length - 1;
    return plural ? w : [...w.slice(0, -1), singular(w.at(-1)!)];
  });
  const verb = action
    ? wordsOf(action)
    : [
        {
          get: endsWithParam || nouns.at(-1) === 'me' || nouns.at(-1) === 'count' ? 'get' : 'list',
          post: 'create',
          patch: 'update',
          put: 'replace',
          delete: 'delete',
        }[method] ?? method,
      ];
  return camel([...verb, ...words.map((w) => w.toLowerCase())]);
}

/** Gives every operation its operationId (unless it declares one; two never share one) and public ones `security: []`. */
export function withOperationIds<T extends Document>(doc: T): T {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation & { operationId?: string }>)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      op.operationId ??= operationIdOf(method, path);
      // Public operations say so: no security requirement, rather than an absent one.
      (op as { security?: unknown[] }).security ??= [];
      const other = seen.get(op.operationId);
      if (other) throw new Error(`operationId ${op.operationId} of ${method} ${path} is also ${other}'s`);
      seen.set(op.operationId, `${method} ${path}`);
    }
  }
  return doc;
}
