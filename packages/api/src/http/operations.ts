import { type RouteConfig, createRoute, type z } from '@hono/zod-openapi';
import { errorResponses } from '../errors.js';
import { referenceOf } from '../reference/reference.js';
import { routePathOf } from './action-paths.js';
import { json, jsonBody, secured } from './route.js';

type Schema = z.ZodType;
type Body = NonNullable<NonNullable<RouteConfig['request']>['body']>;
type Answer = RouteConfig['responses'][string];
type Guard = Pick<RouteConfig, 'middleware' | 'security' | 'tags'>;

/** A route's request as declared: a body given as a schema alone is a required JSON body. */
type RequestDeclared = Omit<NonNullable<RouteConfig['request']>, 'body'> & { body?: Schema | Body };
type RequestOf<Req> = {
  [K in keyof Req]: K extends 'body' ? (Req[K] extends Schema ? ReturnType<typeof jsonBody<Req[K]>> : Req[K]) : Req[K];
};
/** A route's answers as declared: an answer given as a schema alone is JSON, described by the reference's `Answer:`. */
type AnswersOf<Res> = {
  [S in keyof Res]: Res[S] extends Schema ? { description: string; content: { 'application/json': { schema: Res[S] } } } : Res[S];
};

/** The method and path a key names, as types, so that each route keeps its literal method and path (as createRoute's would). */
type MethodOf<K extends string> = K extends `${infer M} ${string}` ? Lowercase<M> & RouteConfig['method'] : never;
type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : string;
/** What a declaration is to Hono: the route as createRoute would type it had the route file written it whole. */
type Declared<K extends string, Req, Res> = Guard & {
  method: MethodOf<K>;
  path: PathOf<K>;
  summary: string;
  description: string;
  request: RequestOf<Req>;
  responses: AnswersOf<Res>;
  getRoutingPath(): string;
};

const isSchema = (value: unknown): value is Schema => typeof (value as Schema | undefined)?.safeParse === 'function';

/** The operations of the reference a route has been declared for: what a test finds left over is documented and not served. */
const declared = new Set<string>();
export const declaredOperations = (): ReadonlySet<string> => declared;

/**
 * The declarations of one tag's routes: `operation('GET /v1/clients/{client_id}', { params }, { 200: Client })`
 * takes the summary, description, success answer's words, operation id and error answers from the tag's
 * reference (reference/<tag>.md), so that a route file holds only its schemas and handlers. `public`
 * routes take no credential.
 */
export function operationsOf(tag: string, access: 'secured' | 'public' = 'secured') {
  const reference = referenceOf(tag);
  const guard: Guard = access === 'secured' ? secured(tag) : { tags: [tag] };
  return <const K extends string, Req extends RequestDeclared, Res extends Record<number, Schema | Answer>>(
    key: K,
    request: Req,
    answers: Res,
  ) => {
    const op = reference.operations.get(key);
    if (!op) throw new Error(`${key} is not in the reference of "${tag}" (packages/api/src/reference)`);
    // An answer given without its words (a schema alone, or an answer with no description) takes the reference's.
    const described = (answer: Schema | Answer) => {
      if (!isSchema(answer) && 'description' in answer && answer.description !== undefined) return answer;
      if (op.answer === undefined) throw new Error(`${key}: an answer has no description, and the reference gives no "Answer:"`);
      return { description: op.answer, ...(isSchema(answer) ? json(answer) : answer) };
    };
    const { body, ...rest } = request;
    declared.add(key);
    const route: RouteConfig = createRoute({
      ...guard,
      method: op.method,
      path: routePathOf(op.path),
      summary: op.summary,
      description: op.description,
      ...(op.operationId === undefined ? {} : { operationId: op.operationId }),
      request: { ...rest, ...(body === undefined ? {} : { body: isSchema(body) ? jsonBody(body) : body }) },
      responses: {
        ...Object.fromEntries(Object.entries(answers).map(([status, answer]) => [status, described(answer)])),
        ...errorResponses(...op.errors),
      },
    });
    // Typed with the route's own answers only: a handler throws its errors (errors.ts), it never returns them.
    return route as unknown as Declared<K, Req, Res>;
  };
}
