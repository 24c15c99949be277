import { OpenAPIHono } from '@hono/zod-openapi';
import { getCharacterBinding, updateCharacterBinding } from '@atelier/db';
import { BindingIdParam, BindingUpdateRequest, CharacterBinding } from '@atelier/contracts/characters';
import { visibleCharacter, touchCharacter } from '../characters/character-writes.js';
import { fail, validationHook } from '../errors.js';
import { newEtag, optionalEtag, sendEtag } from '../http/etag.js';
import { presentBinding } from '../presenters/character.js';
import type { AppEnv } from '../services.js';
import { writeWithEtag } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('characters');

/** A provider copy of a character version, addressed on its own: its consent status, or disabling it. */
export const characterBindingRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
  operation('PATCH /v1/character-bindings/{binding_id}', { params: BindingIdParam, body: BindingUpdateRequest }, { 200: CharacterBinding }),
  async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid('json');
    const { db } = c.get('services');
    const binding = await getCharacterBinding(db, c.req.valid('param').binding_id);
    if (!binding) throw fail.notFound('binding', c.req.valid('param').binding_id);
    const character = await visibleCharacter(caller, binding.character_id, true, { noun: 'binding', id: binding.id });
    if (body.providerConsentStatus === 'not_required' && !binding.photo_based) {
      throw fail.validation([
        {
          type: 'value_error',
          loc: ['body', 'providerConsentStatus'],
          msg: 'not_required applies only to photo-based assets',
          input: body.providerConsentStatus,
        },
      ]);
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
    await touchCharacter(caller, character, undefined);
    sendEtag(c, updated.etag); // the answer is the copy: its etag, not the character's
    return c.json(presentBinding(updated, binding.character_id, binding.version_number), 200);
  },
);
