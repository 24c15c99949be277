import { type Compilable, type CompiledQuery, type QueryResult, type RawBuilder, createQueryId } from 'kysely';
import type { Executor } from './connect.js';

/** A query builder's statement, or an `sql` template's. */
type Statement<R> = Compilable<R> | RawBuilder<R>;

/** Stands in for the argument at `index` while a statement is compiled; swapped for the value on each call. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A statement whose SQL text never depends on its arguments, compiled by kysely once per process instead
 * of on every call. Building and compiling a query is most of kysely's cost, and the statements every
 * request and every run makes (the API key lookup, the workflow's live version, the dispatcher's
 * hand-over) paid it each time for the same text.
 *
 * The statement is built once with a slot for each argument `build` names after the executor (its
 * `length` counts them, so name each one, unused or not); each call sends the compiled text with the
 * slots replaced by the arguments (a slot used twice is two parameters with one value). So each argument
 * must travel as one bound value: never an `in` list (kysely expands an array into a parameter per
 * element; pass it to `= ANY($n)` instead), never undefined (which kysely may leave out of the text), and
 * never a value that changes the text (a column list, an optional clause). An argument the text holds
 * instead of binding is refused when the statement is first compiled.
 */
export function compiledOnce<A extends unknown[], R>(
  build: (db: Executor, ...args: A) => Statement<R>,
): (db: Executor, ...args: A) => Promise<QueryResult<R>> {
  let compiled: CompiledQuery<R> | undefined;
  return (db, ...args) => {
    try {
      compiled ??= compile(db, build);
    } catch (err) {
      return Promise.reject(err);
    }
    const parameters = compiled.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    return db.executeQuery<R>({ ...compiled, parameters, queryId: createQueryId() });
  };
}

/** Compiles with a slot per argument `build` names (its `length`), and refuses a text some slot is missing from. */
function compile<A extends unknown[], R>(db: Executor, build: (db: Executor, ...args: A) => Statement<R>): CompiledQuery<R> {
  const slots = Array.from({ length: build.length - 1 }, (_, i) => new Slot(i));
  const statement = build(db, ...(slots as unknown as A));
  const compiled = 'isRawBuilder' in statement ? statement.compile(db) : statement.compile();
  const missing = slots.filter((slot) => !compiled.parameters.includes(slot));
  if (missing.length > 0) {
    throw new Error(`compiledOnce: argument ${missing.map((s) => s.index + 1).join(', ')} is not one bound value in: ${compiled.sql}`);
  }
  return compiled;
}
