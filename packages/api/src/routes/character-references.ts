import { OpenAPIHono } from '@hono/zod-openapi';
import { addCharacterReference, getArtifact, removeCharacterReference } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { CharacterIdParam, ReferenceCreateRequest, ReferenceParams } from '@atelier/contracts/characters';
import { visibleCharacter, characterRecord, touchCharacter } from '../characters/character-writes.js';
import { fail, validationHook } from '../errors.js';
import { expectEtag, optionalEtag, sendEtag } from '../http/etag.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { WithEtag } from './characters.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('characters');

/** A character's draft references: adding or removing one gives the character a new etag. */
export const characterReferenceRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation(
      'POST /v1/characters/{character_id}/references',
      { params: CharacterIdParam, body: ReferenceCreateRequest },
      { 201: WithEtag },
    ),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const character = await visibleCharacter(caller, c.req.valid('param').character_id, true);
      const { db } = c.get('services');
      const artifact = await getArtifact(db, body.artifactId);
      if (!artifact || artifact.workspace_id !== character.workspace_id) {
        throw fail.code('artifact_not_found', { message: `artifact ${body.artifactId} not found in this workspace` });
      }
      await expectEtag(optionalEtag(c, body.etag), character, (current) => characterRecord(caller, current));
      await addCharacterReference(db, {
        id: newUuid(),
        character_id: character.id,
        workspace_id: character.workspace_id,
        role: body.role,
        artifact_id: artifact.id,
      });
      const touched = await touchCharacter(caller, character, undefined);
      sendEtag(c, touched.etag);
      return c.json(await characterRecord(caller, touched), 201);
    },
  )
  .openapi(
    operation('DELETE /v1/characters/{character_id}/references/{item_id}', { params: ReferenceParams }, { 200: WithEtag }),
    async (c) => {
      const caller = callerOf(c);
      const { character_id, item_id } = c.req.valid('param');
      const character = await visibleCharacter(caller, character_id, true);
      await expectEtag(optionalEtag(c, undefined), character, (current) => characterRecord(caller, current));
      if (!(await removeCharacterReference(c.get('services').db, character.id, item_id))) throw fail.notFound('reference', item_id);
      const touched = await touchCharacter(caller, character, undefined);
      sendEtag(c, touched.etag);
      return c.json(await characterRecord(caller, touched), 200);
    },
  );
