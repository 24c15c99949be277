import { OpenAPIHono } from '@hono/zod-openapi';
import { bindingsOfVersions, characterVersions, createCharacterBinding, getCharacterVersion, retireCharacterVersion } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import {
  BindingCreateRequest,
  CharacterBinding,
  CharacterIdParam,
  CharacterVersion,
  VersionCreateRequest,
  VersionParams,
  CharacterVersionList,
} from '@atelier/contracts/characters';
import { visibleCharacter, freezeVersion, touchCharacter } from '../characters/character-writes.js';
import { fail, validationHook } from '../errors.js';
import { newEtag, optionalEtag, sendEtag } from '../http/etag.js';
import { presentBinding, presentVersion } from '../presenters/character.js';
import type { AppEnv } from '../services.js';
import { json } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('characters');

/** A character's frozen versions: freeze, list, retire, and record a provider copy of a version. */
export const characterVersionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation(
      'POST /v1/characters/{character_id}/versions',
      { params: CharacterIdParam, body: { ...json(VersionCreateRequest), required: false } },
      { 201: CharacterVersion },
    ),
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
    operation('GET /v1/characters/{character_id}/versions', { params: CharacterIdParam }, { 200: CharacterVersionList }),
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
    operation('POST /v1/characters/{character_id}/versions/{number}:retire', { params: VersionParams }, { 200: CharacterVersion }),
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
    operation(
      'POST /v1/characters/{character_id}/versions/{number}/bindings',
      { params: VersionParams, body: BindingCreateRequest },
      { 201: CharacterBinding },
    ),
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
