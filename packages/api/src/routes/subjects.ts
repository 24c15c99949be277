import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
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
import { Pagination, listOf } from '@atelier/contracts/common';
import {
  Consent,
  ConsentCreateRequest,
  ConsentEvent,
  ConsentIdParam,
  ConsentMoveRequest,
  ListSubjectsQuery,
  Subject,
  SubjectCreateRequest,
  SubjectIdParam,
  SubjectUpdateRequest,
  SubjectWithConsents,
} from '@atelier/contracts/subjects';
import { WorkspaceIdParam } from '@atelier/contracts/workspaces';
import { visibleRecord, workspaceAccess, writerAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { action } from '../http/action-paths.js';
import { expectEtag, newEtag, optionalEtag, requiredEtag, sendEtag } from '../http/etag.js';
import { presentConsent, presentConsentEvent, presentSubject } from '../presenters/character.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL, writeWithEtag } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import type { Caller } from '../caller.js';
import { presentPage } from '../presenters/page.js';

/** A subject the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
async function visibleSubject(caller: Caller, id: string, write: boolean) {
  return (await visibleRecord(caller, await getSubject(caller.services.db, id), { noun: 'subject', id }, write)).row;
}

/** A consent the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
async function visibleConsent(caller: Caller, id: string, write: boolean) {
  return (await visibleRecord(caller, await getConsent(caller.services.db, id), { noun: 'consent', id }, write)).row;
}

const consentMoveRoute = (move: ConsentMove, summary: string) =>
  createRoute({
    ...secured('subjects'),
    method: 'post',
    path: action('/v1/likeness-consents/{consent_id}', move),
    summary,
    description:
      'Moves a consent: pending to active (activate), active to suspended (suspend), suspended to active (resume), or any of those to revoked (revoke, final). Owners and admins only (403 admin_required); an invalid move is 409 invalid_transition, and a stale etag is 409 etag_mismatch except on revoke, which a stale etag never blocks.',
    request: { params: ConsentIdParam, body: { ...json(ConsentMoveRequest), required: false } },
    responses: { 200: { description: 'The consent', ...json(Consent) }, ...errorResponses(401, 403, 404, 409, 422) },
  });

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
    createRoute({
      ...secured('subjects'),
      method: 'get',
      path: '/v1/workspaces/{workspace_id}/subjects',
      summary: 'People depicted by likeness characters; erased ones only with includeErased=true',
      description: `The people depicted by likeness characters in a workspace; erased subjects appear only with includeErased=true. ${WHO_MAY_CALL.member}`,
      request: { params: WorkspaceIdParam, query: ListSubjectsQuery },
      responses: { 200: { description: 'Subjects', ...json(listOf(Subject, 'SubjectList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
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
    createRoute({
      ...secured('subjects'),
      method: 'post',
      path: '/v1/workspaces/{workspace_id}/subjects',
      summary: 'Record a person who may be depicted; attested adult and not a political figure (owners and admins)',
      description: `Records a person who may be depicted, attested adult and not a political figure (both attestations must be true, else 422). ${WHO_MAY_CALL.admin}`,
      request: { params: WorkspaceIdParam, body: jsonBody(SubjectCreateRequest) },
      responses: { 201: { description: 'The subject', ...json(Subject) }, ...errorResponses(401, 403, 404, 422) },
    }),
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
  .openapi(
    createRoute({
      ...secured('subjects'),
      method: 'get',
      path: '/v1/subjects/{subject_id}',
      summary: 'A subject and all their consents',
      description: `A subject and all their consents. ${WHO_MAY_CALL.member}`,
      request: { params: SubjectIdParam },
      responses: { 200: { description: 'The subject', ...json(SubjectWithConsents) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const subject = await visibleSubject(callerOf(c), c.req.valid('param').subject_id, false);
      const consents = await listSubjectConsents(c.get('services').db, subject.id);
      sendEtag(c, subject.etag);
      return c.json({ ...presentSubject(subject), consents: consents.map(presentConsent) }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('subjects'),
      method: 'patch',
      path: '/v1/subjects/{subject_id}',
      summary: 'Edit name, email, public role or union status; needs the etag (body or If-Match)',
      description:
        'Edits the name, email, public role or union status of a subject. Owners and admins only (403 admin_required); the etag is required (428 etag_required), a stale one is 409 etag_mismatch with current, and an erased subject is 409 subject_erased.',
      request: { params: SubjectIdParam, body: jsonBody(SubjectUpdateRequest) },
      responses: { 200: { description: 'The subject', ...json(Subject) }, ...errorResponses(401, 403, 404, 409, 422, 428) },
    }),
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
  .openapi(
    createRoute({
      ...secured('subjects'),
      method: 'post',
      path: action('/v1/subjects/{subject_id}', 'erase'),
      summary: 'Erase a person: identifying data blanked, every consent revoked, every version depicting them retired',
      description: `Erases a person: identifying data is blanked, every consent is revoked and every character version depicting them is retired. ${WHO_MAY_CALL.admin}`,
      request: { params: SubjectIdParam },
      responses: { 200: { description: 'The erased subject', ...json(Subject) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const subject = await visibleSubject(callerOf(c), c.req.valid('param').subject_id, true);
      const erased = await eraseSubject(c.get('services').db, subject.id, c.get('principal').userId, newEtag());
      sendEtag(c, erased.etag);
      return c.json(presentSubject(erased), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('subjects'),
      method: 'post',
      path: '/v1/subjects/{subject_id}/consents',
      summary: 'Record a likeness consent; it starts pending and allows nothing until activated',
      description:
        'Records a likeness consent (grantor, what it covers, scope, dates at most 10 years apart, evidence); it starts pending and allows nothing until activated. Owners and admins only (403 admin_required); an erased subject is 409 subject_erased.',
      request: { params: SubjectIdParam, body: jsonBody(ConsentCreateRequest) },
      responses: { 201: { description: 'The pending consent', ...json(Consent) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
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
  .openapi(consentMoveRoute('activate', 'Activate a pending consent'), async (c) =>
    c.json(await answerConsentMove(c, 'activate', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(consentMoveRoute('suspend', 'Suspend an active consent'), async (c) =>
    c.json(await answerConsentMove(c, 'suspend', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(consentMoveRoute('resume', 'Resume a suspended consent'), async (c) =>
    c.json(await answerConsentMove(c, 'resume', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(consentMoveRoute('revoke', 'Revoke a consent: final, never refused for a stale etag, accepted twice'), async (c) =>
    c.json(await answerConsentMove(c, 'revoke', c.req.valid('param').consent_id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      ...secured('subjects'),
      method: 'get',
      path: '/v1/likeness-consents/{consent_id}/events',
      summary: "A consent's history, newest first (written by the database on every status change)",
      description: `A consent's status history, newest first, written by the database on every change. ${WHO_MAY_CALL.member}`,
      request: { params: ConsentIdParam, query: Pagination },
      responses: {
        200: { description: 'Events', ...json(listOf(ConsentEvent, 'ConsentEventList')) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const consent = await visibleConsent(callerOf(c), c.req.valid('param').consent_id, false);
      const page = await listConsentEvents(c.get('services').db, consent.id, c.req.valid('query'));
      return c.json(presentPage(page, presentConsentEvent), 200);
    },
  );
