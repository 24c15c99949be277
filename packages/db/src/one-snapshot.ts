import type { Kysely } from 'kysely';

/**
 * Runs `read` so that every statement it makes sees one snapshot of the database: in a repeatable-read,
 * read-only transaction of its own, or in the caller's transaction when given one. Under PostgreSQL's
 * default (read committed) each statement sees what had committed when it began, so two statements of one
 * read can disagree about a write that committed between them.
 */
export function inOneSnapshot<DB, T>(db: Kysely<DB>, read: (ex: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? read(db) : db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}
