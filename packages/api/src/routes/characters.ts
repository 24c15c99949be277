import { OpenAPIHono } from '@hono/zod-openapi';
import { checkCharacterUse, createCharacterOnce, getProject, listCharacters, updateCharacter } from '@atelier/db';
import { newCharacterId, requestFingerprint, utcDay } from '@atelier/domain';
import {
  Character,
  CharacterCreateRequest,
  CharacterIdParam,
  CharacterUpdateRequest,
  CheckRequest,
  CheckResult,
  ListCharactersQuery,
  CharacterList,
} from '@atelier/contracts/characters';
import { listAccess, requireWriter, resourceAccess } from '../access.js';
import { visibleCharacter, characterRecord, currentCharacterRecord } from '../characters/character-writes.js';
import { fail, validationHook } from '../errors.js';
import { newEtag, optionalEtag, requiredEtag, sendEtag } from '../http/etag.js';
import type { AppEnv } from '../services.js';
import { json, writeWithEtag } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('characters');

/** The answer of the character endpoints that return the character itself. */
export const WithEtag = { description: 'The character; its new etag is in the ETag header and the etag field', ...json(Character) };

/**
 * The character itself: list, create, read, edit, archive and the gate for a planned use. Its references
 * (character-references.ts), versions and provider copies (character-versions.ts, character-bindings.ts)
 * are routed on their own.
 */
export const characterRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('GET /v1/characters', { query: ListCharactersQuery }, { 200: CharacterList }), async (c) => {
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
  })
  .openapi(operation('POST /v1/characters', { body: CharacterCreateRequest }, { 201: Character }), async (c) => {
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
  })
  .openapi(operation('GET /v1/characters/{character_id}', { params: CharacterIdParam }, { 200: Character }), async (c) => {
    const caller = callerOf(c);
    const character = await visibleCharacter(caller, c.req.valid('param').character_id, false);
    sendEtag(c, character.etag);
    return c.json(await characterRecord(caller, character), 200);
  })
  .openapi(
    operation('PATCH /v1/characters/{character_id}', { params: CharacterIdParam, body: CharacterUpdateRequest }, { 200: Character }),
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
  .openapi(operation('DELETE /v1/characters/{character_id}', { params: CharacterIdParam }, { 200: Character }), async (c) => {
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
  })
  .openapi(
    operation('POST /v1/characters/{character_id}:check', { params: CharacterIdParam, body: CheckRequest }, { 200: CheckResult }),
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
