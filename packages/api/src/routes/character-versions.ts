import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { bindingsOfVersions, characterVersions, createCharacterBinding, getCharacterVersion, retireCharacterVersion } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { listOf } from '@atelier/contracts/common';
import {
  BindingCreateRequest,
  CharacterBinding,
  CharacterIdParam,
  CharacterVersion,
  VersionCreateRequest,
  VersionParams,
} from '@atelier/contracts/characters';
import { visibleCharacter, freezeVersion, touchCharacter } from '../characters/character-writes.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { action } from '../http/action-paths.js';
import { newEtag, optionalEtag, sendEtag } from '../http/etag.js';
import { presentBinding, presentVersion } from '../presenters/character.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';

/** A character's frozen versions: freeze, list, retire, and record a provider copy of a version. */
export const characterVersionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: '/v1/characters/{character_id}/versions',
      summary: 'Freeze the draft as the next version (a likeness names its subject)',
      description:
        'Freezes the draft as the next numbered version; a likeness names its subjectId once and later versions keep the same person. Owners and admins only (403 admin_required); a draft that is not ready is 422 no_references, subject_required, subject_changed, subject_not_found or subject_not_allowed, and an archived character is 409 character_archived.',
      request: { params: CharacterIdParam, body: { ...json(VersionCreateRequest), required: false } },
      responses: { 201: { description: 'The frozen version', ...json(CharacterVersion) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json') ?? {};
      const character = await visibleCharacter(caller, c.req.valid('param').character_id, true);
      const frozen = await freezeVersion(caller, character.id, body, optionalEtag(c, undefined));
      sendEtag(c, frozen.character.etag);
      return c.json(presentVersion(frozen.version, []), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'get',
      path: '/v1/characters/{character_id}/versions',
      summary: 'Versions, newest first, each with its provider copies',
      description: `The versions of a character, newest first, each with its provider copies (bindings). ${WHO_MAY_CALL.member}`,
      request: { params: CharacterIdParam },
      responses: {
        200: { description: 'Versions', ...json(listOf(CharacterVersion, 'CharacterVersionList')) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const character = await visibleCharacter(callerOf(c), c.req.valid('param').character_id, false);
      const { db } = c.get('services');
      const versions = await characterVersions(db, character.id);
      const bindings = await bindingsOfVersions(
        db,
        versions.map((v) => v.id),
      );
      return c.json({ items: versions.map((v) => presentVersion(v, bindings)), total: versions.length }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: action('/v1/characters/{character_id}/versions/{number}', 'retire'),
      summary: 'Retire a version: no new work uses it; what it made stays valid; it is never reactivated',
      description: `Retires a version: no new work uses it, what it made stays valid, and it is never reactivated. ${WHO_MAY_CALL.admin}`,
      request: { params: VersionParams },
      responses: { 200: { description: 'The retired version', ...json(CharacterVersion) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { character_id, number } = c.req.valid('param');
      const character = await visibleCharacter(caller, character_id, true);
      const { db } = c.get('services');
      const version = await getCharacterVersion(db, character.id, number);
      if (!version) throw fail.notFound('version', `${number} of character ${character.id}`);
      const retired = (await retireCharacterVersion(db, version.id, 'retired')) ?? version;
      sendEtag(c, (await touchCharacter(caller, character, undefined)).etag);
      return c.json(presentVersion(retired, await bindingsOfVersions(db, [version.id])), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: '/v1/characters/{character_id}/versions/{number}/bindings',
      summary: 'Record a provider copy of a version, with the provider consent status',
      description: `Records a provider copy of a version: provider, assetKind (likeness or voice), the provider's asset id and the provider consent status. ${WHO_MAY_CALL.admin}`,
      request: { params: VersionParams, body: jsonBody(BindingCreateRequest) },
      responses: { 201: { description: 'The provider copy', ...json(CharacterBinding) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { character_id, number } = c.req.valid('param');
      const body = c.req.valid('json');
      const character = await visibleCharacter(caller, character_id, true);
      const { db } = c.get('services');
      const version = await getCharacterVersion(db, character.id, number);
      if (!version) throw fail.notFound('version', `${number} of character ${character.id}`);
      const binding = await createCharacterBinding(db, {
        id: newUuid(),
        workspace_id: character.workspace_id,
        version_id: version.id,
        provider: body.provider,
        asset_kind: body.assetKind,
        asset_id: body.assetId,
        photo_based: body.photoBased,
        provider_consent_status: body.providerConsentStatus,
        etag: newEtag(),
      });
      await touchCharacter(caller, character, undefined);
      sendEtag(c, binding.etag); // the answer is the copy: its etag, not the character's
      return c.json(presentBinding(binding, character.id, version.number), 201);
    },
  );
