/**
 * PostgreSQL refusals a request can provoke: the database enforces rules on its own (constraints,
 * triggers), and a request that breaks one is bad input, not a server fault.
 */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
} as const;

export function pgErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Runs `write`; a PostgreSQL refusal with one of `codes` becomes `answer(err)`, anything else propagates. */
export async function refusedBy<T>(write: () => Promise<T>, codes: readonly string[], answer: (err: Error) => Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const code = pgErrorCode(err);
    if (code && codes.includes(code)) throw answer(err as Error);
    throw err;
  }
}
