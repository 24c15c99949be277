import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  addCharacterReference,
  bindingsOfVersions,
  characterVersions,
  checkCharacterUse,
  createCharacterBinding,
  createCharacterOnce,
  getArtifact,
  getCharacterBinding,
  getCharacterVersion,
  listCharacters,
  removeCharacterReference,
  retireCharacterVersion,
  updateCharacter,
  updateCharacterBinding,
  getProject,
} from '@atelier/db';
import { newCharacterId, newUuid, requestFingerprint, utcDay } from '@atelier/domain';
import { listOf } from '@atelier/contracts/common';
import {
  BindingCreateRequest,
  BindingIdParam,
  BindingUpdateRequest,
  Character,
  CharacterBinding,
  CharacterCreateRequest,
  CharacterIdParam,
  CharacterUpdateRequest,
  CharacterVersion,
  CheckRequest,
  CheckResult,
  ListCharactersQuery,
  ReferenceCreateRequest,
  ReferenceParams,
  VersionCreateRequest,
  VersionParams,
} from '@atelier/contracts/characters';
import { listAccess, requireWriter, resourceAccess } from '../access';
import { characterFor, characterRecord, currentCharacterRecord, freezeVersion, touchCharacter } from '../characters/character-writes';
import { errorResponses, fail, validationHook } from '../errors';
import { action } from '../http/action-paths';
import { expectEtag, newEtag, optionalEtag, requiredEtag, sendEtag } from '../http/etag';
import { presentBinding, presentVersion } from '../presenters/character';
import type { AppEnv } from '../services';
import { json, jsonBody, secured, writeWithEtag } from '../http/route';

const WithEtag = { description: 'The character; its new etag is in the ETag header and the etag field', ...json(Character) };

export const characterRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'get',
      path: '/v1/characters',
      summary: "Characters of a workspace (or of one project), newest first; archived ones only with includeArchived=true",
      request: { query: ListCharactersQuery },
      responses: { 200: { description: 'Characters', ...json(listOf(Character, 'CharacterList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { db } = c.get('services');
      const access = await listAccess(c, q);
      const page = await listCharacters(db, { workspaceId: access.workspaceId, projectId: q.projectId, includeArchived: q.includeArchived ?? false, offset: q.offset, limit: q.limit });
      return c.json({ items: await Promise.all(page.items.map((ch) => characterRecord(c, ch))), total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: '/v1/characters',
      summary: 'Create a character in a project (owners and admins); a retry with the same requestId returns the first answer',
      request: { body: jsonBody(CharacterCreateRequest) },
      responses: { 201: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { db } = c.get('services');
      const project = await getProject(db, body.projectId);
      if (!project) throw fail.notFound(`project ${body.projectId} not found`);
      const access = await resourceAccess(c, project.workspace_id, `project ${body.projectId} not found`);
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
        throw fail.code('request_id_reused', { requestId: body.requestId, message: 'this requestId was used with a different body', characterId: character.id });
      }
      // A retry answers as the first request did, with the character as it now stands.
      sendEtag(c, character.etag);
      return c.json(await characterRecord(c, character), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'get',
      path: '/v1/characters/{character_id}',
      summary: 'A character: references, latest version, whether it is usable today',
      request: { params: CharacterIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const character = await characterFor(c, c.req.valid('param').character_id, false);
      sendEtag(c, character.etag);
      return c.json(await characterRecord(c, character), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'patch',
      path: '/v1/characters/{character_id}',
      summary: 'Rename or edit the persona draft; needs the etag (body or If-Match); frozen versions are untouched',
      request: { params: CharacterIdParam, body: jsonBody(CharacterUpdateRequest) },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422, 428) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const character = await characterFor(c, c.req.valid('param').character_id, true);
      const expected = requiredEtag(c, body.etag);
      const updated = await writeWithEtag(
        c,
        () =>
          updateCharacter(c.get('services').db, character.id, expected, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.persona !== undefined ? { persona: JSON.stringify(body.persona) } : {}),
            etag: newEtag(),
          }),
        () => currentCharacterRecord(c, character.id),
      );
      return c.json(await characterRecord(c, updated), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'delete',
      path: '/v1/characters/{character_id}',
      summary: 'Archive a character; what it made stays valid (an etag, when sent, is checked)',
      request: { params: CharacterIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const character = await characterFor(c, c.req.valid('param').character_id, true);
      const expected = optionalEtag(c, undefined);
      if (character.archived_at && expected === undefined) {
        sendEtag(c, character.etag);
        return c.json(await characterRecord(c, character), 200);
      }
      const archived = await writeWithEtag(
        c,
        () => updateCharacter(c.get('services').db, character.id, expected, { archived_at: character.archived_at ?? new Date(), etag: newEtag() }),
        () => currentCharacterRecord(c, character.id),
      );
      return c.json(await characterRecord(c, archived), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: '/v1/characters/{character_id}/references',
      summary: 'Add a reference (an artifact of the same workspace) to the draft',
      request: { params: CharacterIdParam, body: jsonBody(ReferenceCreateRequest) },
      responses: { 201: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const character = await characterFor(c, c.req.valid('param').character_id, true);
      const { db } = c.get('services');
      const artifact = await getArtifact(db, body.artifactId);
      if (!artifact || artifact.workspace_id !== character.workspace_id) {
        throw fail.code('artifact_not_found', { message: `artifact ${body.artifactId} not found in this workspace` });
      }
      await expectEtag(optionalEtag(c, body.etag), character, (current) => characterRecord(c, current));
      await addCharacterReference(db, { id: newUuid(), character_id: character.id, workspace_id: character.workspace_id, role: body.role, artifact_id: artifact.id });
      const touched = await touchCharacter(c, character, undefined);
      return c.json(await characterRecord(c, touched), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'delete',
      path: '/v1/characters/{character_id}/references/{item_id}',
      summary: 'Remove a reference from the draft; frozen versions keep it',
      request: { params: ReferenceParams },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const { character_id, item_id } = c.req.valid('param');
      const character = await characterFor(c, character_id, true);
      await expectEtag(optionalEtag(c, undefined), character, (current) => characterRecord(c, current));
      if (!(await removeCharacterReference(c.get('services').db, character.id, item_id))) throw fail.notFound(`reference ${item_id} not found`);
      const touched = await touchCharacter(c, character, undefined);
      return c.json(await characterRecord(c, touched), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: '/v1/characters/{character_id}/versions',
      summary: 'Freeze the draft as the next version (a likeness names its subject)',
      request: { params: CharacterIdParam, body: { ...json(VersionCreateRequest), required: false } },
      responses: { 201: { description: 'The frozen version', ...json(CharacterVersion) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json') ?? {};
      const character = await characterFor(c, c.req.valid('param').character_id, true);
      const frozen = await freezeVersion(c, character.id, body, optionalEtag(c, undefined));
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
      request: { params: CharacterIdParam },
      responses: { 200: { description: 'Versions', ...json(listOf(CharacterVersion, 'CharacterVersionList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const character = await characterFor(c, c.req.valid('param').character_id, false);
      const { db } = c.get('services');
      const versions = await characterVersions(db, character.id);
      const bindings = await bindingsOfVersions(db, versions.map((v) => v.id));
      return c.json({ items: versions.map((v) => presentVersion(v, bindings)), total: versions.length }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: action('/v1/characters/{character_id}/versions/{number}', 'retire'),
      summary: 'Retire a version: no new work uses it; what it made stays valid; it is never reactivated',
      request: { params: VersionParams },
      responses: { 200: { description: 'The retired version', ...json(CharacterVersion) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { character_id, number } = c.req.valid('param');
      const character = await characterFor(c, character_id, true);
      const { db } = c.get('services');
      const version = await getCharacterVersion(db, character.id, number);
      if (!version) throw fail.notFound(`version ${number} of character ${character.id} not found`);
      const retired = (await retireCharacterVersion(db, version.id, 'retired')) ?? version;
      await touchCharacter(c, character, undefined);
      return c.json(presentVersion(retired, await bindingsOfVersions(db, [version.id])), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: '/v1/characters/{character_id}/versions/{number}/bindings',
      summary: 'Record a provider copy of a version, with the provider consent status',
      request: { params: VersionParams, body: jsonBody(BindingCreateRequest) },
      responses: { 201: { description: 'The provider copy', ...json(CharacterBinding) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { character_id, number } = c.req.valid('param');
      const body = c.req.valid('json');
      const character = await characterFor(c, character_id, true);
      const { db } = c.get('services');
      const version = await getCharacterVersion(db, character.id, number);
      if (!version) throw fail.notFound(`version ${number} of character ${character.id} not found`);
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
      await touchCharacter(c, character, undefined);
      sendEtag(c, binding.etag); // the answer is the copy: its etag replaces the character's
      return c.json(presentBinding(binding, character.id, version.number), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'patch',
      path: '/v1/character-bindings/{binding_id}',
      summary: 'Update the provider consent status of a copy, or disable it (an etag, when sent, is checked)',
      request: { params: BindingIdParam, body: jsonBody(BindingUpdateRequest) },
      responses: { 200: { description: 'The provider copy', ...json(CharacterBinding) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { db } = c.get('services');
      const binding = await getCharacterBinding(db, c.req.valid('param').binding_id);
      if (!binding) throw fail.notFound(`binding ${c.req.valid('param').binding_id} not found`);
      const character = await characterFor(c, binding.character_id, true, `binding ${binding.id} not found`);
      if (body.providerConsentStatus === 'not_required' && !binding.photo_based) {
        throw fail.validation([{ type: 'value_error', loc: ['body', 'providerConsentStatus'], msg: 'not_required applies only to photo-based assets', input: body.providerConsentStatus }]);
      }
      const updated = await writeWithEtag(
        c,
        () =>
          updateCharacterBinding(db, binding.id, optionalEtag(c, body.etag), {
            ...(body.providerConsentStatus !== undefined ? { provider_consent_status: body.providerConsentStatus } : {}),
            ...(body.disabled !== undefined ? { disabled_at: body.disabled ? (binding.disabled_at ?? new Date()) : null } : {}),
            etag: newEtag(),
          }),
        () => presentBinding(binding, binding.character_id, binding.version_number),
      );
      await touchCharacter(c, character, undefined);
      sendEtag(c, updated.etag); // the answer is the copy: its etag replaces the character's
      return c.json(presentBinding(updated, binding.character_id, binding.version_number), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('characters'),
      method: 'post',
      path: action('/v1/characters/{character_id}', 'check'),
      summary: 'The gate for a planned use: media, and optionally use, channel, territory, advertiser, provider, a date or a version',
      request: { params: CharacterIdParam, body: jsonBody(CheckRequest) },
      responses: { 200: { description: 'Usability and the reasons it is refused', ...json(CheckResult) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const character = await characterFor(c, c.req.valid('param').character_id, false);
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
