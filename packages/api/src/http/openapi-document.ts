import { contractPaths } from './action-paths';

type Operation = { requestBody?: unknown; parameters?: Array<{ in?: string }>; responses?: Record<string, unknown> };
type Document = { paths?: Record<string, unknown> };

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/**
 * Answers every route can give before its handler runs, declared on each operation so that a generated
 * client knows them: the input guard's 413 and 415 for bodies, 422 for a query it refuses, 404 for a
 * path naming nothing, and 503 while the database or the engine is out of reach.
 */
const EDGE_RESPONSES: Array<{ status: string; description: string; applies: (op: Operation, path: string) => boolean }> = [
  { status: '413', description: 'The request body is larger than the limit', applies: (op) => op.requestBody !== undefined },
  { status: '415', description: 'JSON bodies are read as UTF-8 only', applies: (op) => op.requestBody !== undefined },
  { status: '422', description: 'Validation failure', applies: (op) => op.requestBody !== undefined || (op.parameters ?? []).length > 0 },
  { status: '404', description: "Not found, or outside the caller's workspace", applies: (_op, path) => path.includes('{') },
  { status: '503', description: 'The database or the execution engine is unavailable; retry after Retry-After seconds', applies: (_op, path) => path.startsWith('/v1/') },
];

export function withEdgeResponses<T extends Document>(doc: T): T {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      op.responses ??= {};
      for (const edge of EDGE_RESPONSES) {
        if (edge.applies(op, path) && !(edge.status in op.responses)) op.responses[edge.status] = { description: edge.description, content: errorContent };
      }
    }
  }
  return doc;
}

/** The document /openapi.json serves: generated from the route schemas, in the contract's path forms. */
export const publishedDocument = <T extends Document>(generated: T): T => withEdgeResponses(contractPaths(generated));
