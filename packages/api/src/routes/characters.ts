import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { checkCharacterUse, createCharacterOnce, getProject, listCharacters, updateCharacter } from '@atelier/db';
import { newCharacterId, requestFingerprint, utcDay } from '@atelier/domain';
import { listOf } from '@atelier/contracts/common';
import {
  Character,
  CharacterCreateRequest,
  CharacterIdParam,
  CharacterUpdateRequest,
  CheckRequest,
  CheckResult,
  ListCharactersQuery,
} from '@atelier/contracts/characters';
import { listAccess, requireWriter, resourceAccess } from '../access.js';
import { visibleCharacter, characterRecord, currentCharacterRecord } from '../characters/character-writes.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { action } from '../http/action-paths.js';
import { newEtag, optionalEtag, requiredEtag, sendEtag } from '../http/etag.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL, writeWithEtag } from '../http/route.js';
import { callerOf } from '../http/caller.js';

/** The answer of the character endpoints that return the character itself. */
export const WithEtag = { description: 'The character; its new etag is in the ETag header and the etag field', ...json(Character) };

/**
 * The character itself: list, create, read, edit, archive and the gate for a planned use. Its references
 * (character-references.ts), versions and provider copies (character-versions.ts, character-bindings.ts)
 * are routed on their own.
 */
export const characterRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'get',
      path: '/v1/characters',
      summary: 'Characters of a workspace (or of one project), newest first; archived ones only with includeArchived=true',
      description: `The characters of a workspace, or of one project, newest first and paged; archived ones appear only with includeArchived=true. ${WHO_MAY_CALL.member}`,
      request: { query: ListCharactersQuery },
      responses: { 200: { description: 'Characters', ...json(listOf(Character, 'CharacterList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const q = c.req.valid('query');
      const { db } = c.get('services');
      const access = await listAccess(caller, q);
      const page = await listCharacters(db, {
        workspaceId: access.workspaceId,
        projectId: q.projectId,
        includeArchived: q.includeArchived ?? false,
        offset: q.offset,
        limit: q.limit,
      });
      return c.json({ items: await Promise.all(page.items.map((ch) => characterRecord(caller, ch))), total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: '/v1/characters',
      summary: 'Create a character in a project (owners and admins); a retry with the same requestId returns the first answer',
      description:
        'Creates a character (synthetic or likeness) in a project, with its persona draft. Owners and admins only (403 admin_required); a retry with the same requestId returns the first answer, and the same requestId with another body is 409 request_id_reused.',
      request: { body: jsonBody(CharacterCreateRequest) },
      responses: { 201: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const { db } = c.get('services');
      const project = await getProject(db, body.projectId);
      if (!project) throw fail.notFound('project', body.projectId);
      const access = await resourceAccess(caller, project.workspace_id, 'project', body.projectId);
      requireWriter(access);
      const fingerprint = requestFingerprint(body);
      const { character, created } = await createCharacterOnce(db, {
        id: newCharacterId(),
        workspace_id: access.workspaceId,
        project_id: body.projectId,
        name: body.name,
        format: body.format,
        persona: JSON.stringify(body.persona ?? {}),
        request_id: body.requestId ?? null,
        request_fingerprint: body.requestId ? fingerprint : null,
        etag: newEtag(),
        created_by: c.get('principal').userId,
      });
      if (!created && character.request_fingerprint !== fingerprint) {
        throw fail.code('request_id_reused', {
          requestId: body.requestId,
          message: 'this requestId was used with a different body',
          characterId: character.id,
        });
      }
      // A retry answers as the first request did, with the character as it now stands.
      sendEtag(c, character.etag);
      return c.json(await characterRecord(caller, character), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'get',
      path: '/v1/characters/{character_id}',
      summary: 'A character: references, latest version, whether it is usable today',
      description: `A character with its references, latest version and whether it is usable today; the ETag header carries its etag. ${WHO_MAY_CALL.member}`,
      request: { params: CharacterIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const character = await visibleCharacter(caller, c.req.valid('param').character_id, false);
      sendEtag(c, character.etag);
      return c.json(await characterRecord(caller, character), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'patch',
      path: '/v1/characters/{character_id}',
      summary: 'Rename or edit the persona draft; needs the etag (body or If-Match); frozen versions are untouched',
      description:
        'Renames a character or edits its persona draft; frozen versions are untouched. Owners and admins only (403 admin_required); the etag is required (428 etag_required) and a stale one is 409 etag_mismatch with current.',
      request: { params: CharacterIdParam, body: jsonBody(CharacterUpdateRequest) },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422, 428) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const character = await visibleCharacter(caller, c.req.valid('param').character_id, true);
      const expected = requiredEtag(c, body.etag);
      const updated = await writeWithEtag(
        c,
        () =>
          updateCharacter(c.get('services').db, character.id, expected, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.persona !== undefined ? { persona: JSON.stringify(body.persona) } : {}),
            etag: newEtag(),
          }),
        () => currentCharacterRecord(caller, character.id),
      );
      return c.json(await characterRecord(caller, updated), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'delete',
      path: '/v1/characters/{character_id}',
      summary: 'Archive a character; what it made stays valid (an etag, when sent, is checked)',
      description:
        'Archives a character: it is hidden from lists and takes no new work, and nothing it made is affected. Owners and admins only (403 admin_required); an etag, when sent, must match (409 etag_mismatch).',
      request: { params: CharacterIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const character = await visibleCharacter(caller, c.req.valid('param').character_id, true);
      const expected = optionalEtag(c, undefined);
      if (character.archived_at && expected === undefined) {
        sendEtag(c, character.etag);
        return c.json(await characterRecord(caller, character), 200);
      }
      const archived = await writeWithEtag(
        c,
        () =>
          updateCharacter(c.get('services').db, character.id, expected, {
            archived_at: character.archived_at ?? new Date(),
            etag: newEtag(),
          }),
        () => currentCharacterRecord(caller, character.id),
      );
      return c.json(await characterRecord(caller, archived), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: action('/v1/characters/{character_id}', 'check'),
      summary: 'The gate for a planned use: media, and optionally use, channel, territory, advertiser, provider, a date or a version',
      description: `The consent gate for a planned use (media, and optionally use, channel, territory, advertiser, provider, a date or a version): answers whether the character is usable and, if not, the reasons. When a provider is named, the provider's consent is needed as well as the workspace's. ${WHO_MAY_CALL.member}`,
      request: { params: CharacterIdParam, body: jsonBody(CheckRequest) },
      responses: {
        200: { description: 'Usability and the reasons it is refused', ...json(CheckResult) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const character = await visibleCharacter(callerOf(c), c.req.valid('param').character_id, false);
      const verdict = await checkCharacterUse(c.get('services').db, {
        workspaceId: character.workspace_id,
        characterId: character.id,
        media: body.media,
        use: body.use,
        channel: body.channel,
        territory: body.territory,
        advertiser: body.advertiser,
        providers: body.provider ? [body.provider] : [],
        on: body.date ?? utcDay(),
        versionNumber: body.version,
      });
      return c.json({ ...verdict, checkedAt: new Date().toISOString() }, 200);
    },
  );
