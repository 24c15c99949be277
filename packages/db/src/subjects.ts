import type { Insertable, Selectable } from 'kysely';
import { actAs } from './actor.js';
import type { Db, Executor } from './connect.js';
import type { LikenessConsentEventsTable, LikenessConsentsTable, SubjectsTable } from './schema-characters.js';
import { pageOf } from './paging.js';

/** Subjects (the people characters depict) and their likeness consents. */
export type SubjectRow = Selectable<SubjectsTable>;
export type ConsentRow = Selectable<LikenessConsentsTable>;
export type ConsentEventRow = Selectable<LikenessConsentEventsTable>;

export async function createSubject(db: Db, row: Insertable<SubjectsTable>): Promise<SubjectRow> {
  return db.insertInto('subjects').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getSubject(db: Executor, id: string): Promise<SubjectRow | undefined> {
  return db.selectFrom('subjects').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listSubjects(db: Db, f: { workspaceId: string; includeErased: boolean; offset: number; limit: number }) {
  let base = db.selectFrom('subjects').where('workspace_id', '=', f.workspaceId);
  if (!f.includeErased) base = base.where('erased_at', 'is', null);
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], f);
}

/** Applies `patch` only when the stored etag is still `expectedEtag`; undefined means it was not. */
export async function updateSubject(
  db: Db,
  id: string,
  expectedEtag: string,
  patch: Partial<Pick<Insertable<SubjectsTable>, 'display_name' | 'email' | 'public_role' | 'union_status'>> & { etag: string },
): Promise<SubjectRow | undefined> {
  return db
    .updateTable('subjects')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .where('etag', '=', expectedEtag)
    .where('erased_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Erasure: identifying data blanked, every consent revoked (the database records each in the history),
 * every version depicting the person retired. Erasing twice changes nothing the second time.
 */
export async function eraseSubject(db: Db, id: string, actorId: string, etag: string): Promise<SubjectRow> {
  return db.transaction().execute(async (tx) => {
    const subject = await tx.selectFrom('subjects').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
    if (subject.erased_at) return subject;
    await actAs(tx, actorId, 'subject_erased');
    await tx
      .updateTable('likeness_consents')
      .set({ status: 'revoked', updated_at: new Date(), etag })
      .where('subject_id', '=', id)
      .where('status', '<>', 'revoked')
      .execute();
    await tx
      .updateTable('character_versions')
      .set({ retired_at: new Date(), retired_reason: 'subject_erased' })
      .where('subject_id', '=', id)
      .where('retired_at', 'is', null)
      .execute();
    return tx
      .updateTable('subjects')
      .set({ display_name: null, email: null, public_role: null, union_status: null, erased_at: new Date(), updated_at: new Date(), etag })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function createConsent(db: Db, row: Insertable<LikenessConsentsTable>, actorId: string): Promise<ConsentRow> {
  return db.transaction().execute(async (tx) => {
    await actAs(tx, actorId, null);
    return tx.insertInto('likeness_consents').values(row).returningAll().executeTakeFirstOrThrow();
  });
}

export async function getConsent(db: Executor, id: string): Promise<ConsentRow | undefined> {
  return db.selectFrom('likeness_consents').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listSubjectConsents(db: Db, subjectId: string): Promise<ConsentRow[]> {
  return db
    .selectFrom('likeness_consents')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/**
 * Moves a consent to `to` if it is still in `from` (and, when given, still carries `expectedEtag`).
 * Undefined means another writer moved it first; the caller re-reads and answers.
 */
export async function moveConsent(
  db: Db,
  m: {
    id: string;
    from: string;
    to: 'active' | 'suspended' | 'revoked';
    expectedEtag?: string;
    etag: string;
    actorId: string;
    reason?: string | null;
  },
): Promise<ConsentRow | undefined> {
  return db.transaction().execute(async (tx) => {
    await actAs(tx, m.actorId, m.reason ?? null);
    let q = tx
      .updateTable('likeness_consents')
      .set({ status: m.to, etag: m.etag, updated_at: new Date() })
      .where('id', '=', m.id)
      .where('status', '=', m.from as never);
    if (m.expectedEtag !== undefined) q = q.where('etag', '=', m.expectedEtag);
    return q.returningAll().executeTakeFirst();
  });
}

export async function listConsentEvents(db: Db, consentId: string, page: { offset: number; limit: number }) {
  const base = db.selectFrom('likeness_consent_events').where('consent_id', '=', consentId);
  return pageOf(db, base, (qb) => qb.selectAll(), [['id', 'desc']], page);
}
