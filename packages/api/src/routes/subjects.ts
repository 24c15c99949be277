import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  createConsent,
  createSubject,
  eraseSubject,
  getConsent,
  getSubject,
  listConsentEvents,
  listSubjectConsents,
  listSubjects,
  moveConsent,
  updateSubject,
} from '@atelier/db';
import { type ConsentMove, consentMove, newUuid, withinConsentSpan } from '@atelier/domain';
import { Pagination } from '@atelier/contracts/common';
import {
  Consent,
  ConsentCreateRequest,
  ConsentIdParam,
  ConsentMoveRequest,
  ListSubjectsQuery,
  Subject,
  SubjectCreateRequest,
  SubjectIdParam,
  SubjectUpdateRequest,
  SubjectWithConsents,
  SubjectList,
  ConsentEventList,
} from '@atelier/contracts/subjects';
import { WorkspaceIdParam } from '@atelier/contracts/workspaces';
import { visibleRecord, workspaceAccess, writerAccess } from '../access.js';
import { fail, validationHook } from '../errors.js';
import { expectEtag, newEtag, optionalEtag, requiredEtag, sendEtag } from '../http/etag.js';
import { presentConsent, presentConsentEvent, presentSubject } from '../presenters/character.js';
import type { AppEnv } from '../services.js';
import { json, writeWithEtag } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import type { Caller } from '../caller.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('subjects');

/** A subject the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
async function visibleSubject(caller: Caller, id: string, write: boolean) {
  return (await visibleRecord(caller, await getSubject(caller.services.db, id), { noun: 'subject', id }, write)).row;
}

/** A consent the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
async function visibleConsent(caller: Caller, id: string, write: boolean) {
  return (await visibleRecord(caller, await getConsent(caller.services.db, id), { noun: 'consent', id }, write)).row;
}

const consentMoveRoute = (move: ConsentMove) =>
  operation(
    `POST /v1/likeness-consents/{consent_id}:${move}`,
    { params: ConsentIdParam, body: { ...json(ConsentMoveRequest), required: false } },
    { 200: Consent },
  );

/** One answer for the four consent moves: the state machine decides, the database re-checks and records. */
async function answerConsentMove(
  c: Context<AppEnv>,
  move: ConsentMove,
  consentId: string,
  body: { etag?: string; reason?: string } | undefined,
) {
  const consent = await visibleConsent(callerOf(c), consentId, true);
  // A revoke is never refused for a stale etag: withdrawing consent must always get through.
  const expectedEtag = move === 'revoke' ? undefined : optionalEtag(c, body?.etag);
  await expectEtag(expectedEtag, consent, presentConsent);
  const decision = consentMove(consent.status, move);
  if (decision.kind === 'invalid') throw fail.invalidTransition(decision.message, { status: consent.status });
  let current = consent;
  if (decision.kind === 'move') {
    const moved = await moveConsent(c.get('services').db, {
      id: consent.id,
      from: decision.from,
      to: decision.to as 'active',
      expectedEtag,
      etag: newEtag(),
      actorId: c.get('principal').userId,
      reason: body?.reason ?? null,
    });
    if (!moved) {
      // Another writer moved it first: judge the move again against what is stored now.
      const now = (await getConsent(c.get('services').db, consent.id))!;
      if (move === 'revoke' && now.status === 'revoked') current = now;
      else {
        await expectEtag(expectedEtag, now, presentConsent);
        throw fail.invalidTransition(`the consent is now ${now.status}`, { status: now.status });
      }
    } else current = moved;
  }
  sendEtag(c, current.etag);
  return presentConsent(current);
}

export const subjectRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation('GET /v1/workspaces/{workspace_id}/subjects', { params: WorkspaceIdParam, query: ListSubjectsQuery }, { 200: SubjectList }),
    async (c) => {
      const q = c.req.valid('query');
      const access = await workspaceAccess(callerOf(c), c.req.valid('param').workspace_id);
      const page = await listSubjects(c.get('services').db, {
        workspaceId: access.workspaceId,
        includeErased: q.includeErased ?? false,
        offset: q.offset,
        limit: q.limit,
      });
      return c.json(presentPage(page, presentSubject), 200);
    },
  )
  .openapi(
    operation('POST /v1/workspaces/{workspace_id}/subjects', { params: WorkspaceIdParam, body: SubjectCreateRequest }, { 201: Subject }),
    async (c) => {
      const body = c.req.valid('json');
      const access = await writerAccess(callerOf(c), c.req.valid('param').workspace_id);
      const subject = await createSubject(c.get('services').db, {
        id: newUuid(),
        workspace_id: access.workspaceId,
        display_name: body.displayName,
        email: body.email ?? null,
        public_role: body.publicRole ?? null,
        union_status: body.unionStatus ?? null,
        attested_adult: body.attestations.adult,
        attested_not_political: body.attestations.notPolitical,
        etag: newEtag(),
      });
      sendEtag(c, subject.etag);
      return c.json(presentSubject(subject), 201);
    },
  )
  .openapi(operation('GET /v1/subjects/{subject_id}', { params: SubjectIdParam }, { 200: SubjectWithConsents }), async (c) => {
    const subject = await visibleSubject(callerOf(c), c.req.valid('param').subject_id, false);
    const consents = await listSubjectConsents(c.get('services').db, subject.id);
    sendEtag(c, subject.etag);
    return c.json({ ...presentSubject(subject), consents: consents.map(presentConsent) }, 200);
  })
  .openapi(
    operation('PATCH /v1/subjects/{subject_id}', { params: SubjectIdParam, body: SubjectUpdateRequest }, { 200: Subject }),
    async (c) => {
      const body = c.req.valid('json');
      const subject = await visibleSubject(callerOf(c), c.req.valid('param').subject_id, true);
      const expected = requiredEtag(c, body.etag);
      if (subject.erased_at) throw fail.code('subject_erased', { message: 'an erased subject cannot be edited' });
      const updated = await writeWithEtag(
        c,
        () =>
          updateSubject(c.get('services').db, subject.id, expected, {
            ...(body.displayName !== undefined ? { display_name: body.displayName } : {}),
            ...(body.email !== undefined ? { email: body.email } : {}),
            ...(body.publicRole !== undefined ? { public_role: body.publicRole } : {}),
            ...(body.unionStatus !== undefined ? { union_status: body.unionStatus } : {}),
            etag: newEtag(),
          }),
        async () => presentSubject((await getSubject(c.get('services').db, subject.id))!),
      );
      return c.json(presentSubject(updated), 200);
    },
  )
  .openapi(operation('POST /v1/subjects/{subject_id}:erase', { params: SubjectIdParam }, { 200: Subject }), async (c) => {
    const subject = await visibleSubject(callerOf(c), c.req.valid('param').subject_id, true);
    const erased = await eraseSubject(c.get('services').db, subject.id, c.get('principal').userId, newEtag());
    sendEtag(c, erased.etag);
    return c.json(presentSubject(erased), 200);
  })
  .openapi(
    operation('POST /v1/subjects/{subject_id}/consents', { params: SubjectIdParam, body: ConsentCreateRequest }, { 201: Consent }),
    async (c) => {
      const body = c.req.valid('json');
      const subject = await visibleSubject(callerOf(c), c.req.valid('param').subject_id, true);
      if (body.endsOn < body.startsOn) {
        throw fail.validation([{ type: 'value_error', loc: ['body', 'endsOn'], msg: 'endsOn is before startsOn', input: body.endsOn }]);
      }
      if (!withinConsentSpan(body.startsOn, body.endsOn)) {
        throw fail.validation([
          { type: 'value_error', loc: ['body', 'endsOn'], msg: 'a consent may run at most 10 years', input: body.endsOn },
        ]);
      }
      if (subject.erased_at) throw fail.code('subject_erased', { message: 'an erased subject cannot give consent' });
      const consent = await createConsent(
        c.get('services').db,
        {
          id: newUuid(),
          workspace_id: subject.workspace_id,
          subject_id: subject.id,
          grantor: body.grantor,
          covers_likeness: body.coversLikeness,
          covers_voice: body.coversVoice,
          scope: JSON.stringify(body.scope),
          starts_on: body.startsOn,
          ends_on: body.endsOn,
          evidence_kind: body.evidenceKind,
          evidence_sha256: body.evidenceSha256,
          etag: newEtag(),
          created_by: c.get('principal').userId,
        },
        c.get('principal').userId,
      );
      sendEtag(c, consent.etag);
      return c.json(presentConsent(consent), 201);
    },
  )
  .openapi(consentMoveRoute('activate'), async (c) =>
    c.json(await answerConsentMove(c, 'activate', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(consentMoveRoute('suspend'), async (c) =>
    c.json(await answerConsentMove(c, 'suspend', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(consentMoveRoute('resume'), async (c) =>
    c.json(await answerConsentMove(c, 'resume', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(consentMoveRoute('revoke'), async (c) =>
    c.json(await answerConsentMove(c, 'revoke', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(
    operation('GET /v1/likeness-consents/{consent_id}/events', { params: ConsentIdParam, query: Pagination }, { 200: ConsentEventList }),
    async (c) => {
      const consent = await visibleConsent(callerOf(c), c.req.valid('param').consent_id, false);
      const page = await listConsentEvents(c.get('services').db, consent.id, c.req.valid('query'));
      return c.json(presentPage(page, presentConsentEvent), 200);
    },
  );
