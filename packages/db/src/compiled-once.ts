import { type Compilable, type CompiledQuery, type QueryResult, type RawBuilder, createQueryId } from 'kysely';
import type { Executor } from './connect.js';

/** A query builder's statement, or an `sql` template's. */
type Statement<R> = Compilable<R> | RawBuilder<R>;

/** Stands in for an argument (or one value of a record argument) while a statement is compiled; swapped for it on each call. */
class Slot {
  constructor(
    readonly index: number,
    readonly key?: string,
  ) {}

  valueIn(args: readonly unknown[]): unknown {
    const arg = args[this.index];
    return this.key === undefined ? arg : (arg as Record<string, unknown>)[this.key];
  }

  toString(): string {
    return this.key === undefined ? `argument ${this.index + 1}` : `argument ${this.index + 1}'s ${this.key}`;
  }
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
      compiled ??= compile(db, build, Array.from({ length: build.length - 1 }, (_, i) => new Slot(i)) as A);
    } catch (err) {
      return Promise.reject(err);
    }
    return executeWith(db, compiled, args);
  };
}

/**
 * compiledOnce for a statement whose text depends on which values it is given (a row's optional columns,
 * an optional clause): compiled once per shape of its arguments. Each argument is a value or a record of
 * values (a row). What may shape the text is only whether a value (or a record's value) is undefined, true
 * or false: those are kept as they are while the statement is compiled, and every other value, null
 * included, is a slot, bound on each call. So `build` may branch on `x === undefined` or on a boolean, but
 * never on a value's content (null or not, a string's text, an array's length), and a record must not
 * nest records `build` reads into. A kysely expression (`sql\`…\``) can be no argument: build it inside
 * `build` from plain values.
 */
export function compiledPerShape<A extends unknown[], R>(
  build: (db: Executor, ...args: A) => Statement<R>,
): (db: Executor, ...args: A) => Promise<QueryResult<R>> {
  const byShape = new Map<string, CompiledQuery<R>>();
  return (db, ...args) => {
    let compiled: CompiledQuery<R> | undefined;
    try {
      const shape = shapeOf(args);
      compiled = byShape.get(shape);
      if (!compiled) {
        compiled = compile(db, build, slotted(args) as A);
        // Shapes come from code paths, so they are few; a bound keeps a mistake from growing the map.
        if (byShape.size < MAX_SHAPES) byShape.set(shape, compiled);
      }
    } catch (err) {
      return Promise.reject(err);
    }
    return executeWith(db, compiled, args);
  };
}

const MAX_SHAPES = 256;

function executeWith<R>(db: Executor, compiled: CompiledQuery<R>, args: readonly unknown[]): Promise<QueryResult<R>> {
  const parameters = compiled.parameters.map((p) => (p instanceof Slot ? p.valueIn(args) : p));
  return db.executeQuery<R>({ ...compiled, parameters, queryId: createQueryId() });
}

/** Compiles with `slots` standing in for the arguments, and refuses a text some slot is missing from. */
function compile<A extends unknown[], R>(db: Executor, build: (db: Executor, ...args: A) => Statement<R>, args: A): CompiledQuery<R> {
  const statement = build(db, ...args);
  const compiled = 'isRawBuilder' in statement ? statement.compile(db) : statement.compile();
  const missing = slotsIn(args).filter((slot) => !compiled.parameters.includes(slot));
  if (missing.length > 0) throw new Error(`compiled statement: ${missing.join(', ')} is not one bound value in: ${compiled.sql}`);
  return compiled;
}

function slotsIn(args: readonly unknown[]): Slot[] {
  return args.flatMap((arg) => (arg instanceof Slot ? [arg] : isRecord(arg) ? Object.values(arg).filter((v) => v instanceof Slot) : []));
}

/** What of a value may shape a statement's text: whether it is undefined, true or false, or else given. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'u';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'object' && value !== null && ('toOperationNode' in value || 'isRawBuilder' in value)) {
    throw new Error('compiledPerShape: a kysely expression cannot be an argument; build it inside the statement');
  }
  return 'v';
}

function shapeOf(args: readonly unknown[]): string {
  let shape = '';
  for (const arg of args) {
    if (isRecord(arg)) {
      shape += '{';
      for (const key in arg) shape += `${key}:${kindOf(arg[key])},`;
      shape += '}';
    } else shape += kindOf(arg);
    shape += '|';
  }
  return shape;
}

function slotted(args: readonly unknown[]): unknown[] {
  const slotFor = (value: unknown, index: number, key?: string) => (kindOf(value) === 'v' ? new Slot(index, key) : value);
  return args.map((arg, index) =>
    isRecord(arg) ? Object.fromEntries(Object.entries(arg).map(([key, value]) => [key, slotFor(value, index, key)])) : slotFor(arg, index),
  );
}

/** A plain object (a row): its values are slotted one by one. Dates, arrays and class instances are values. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
