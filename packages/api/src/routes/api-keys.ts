import type { Context } from 'hono';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey, ApiKeyList } from '@atelier/contracts/auth';
import { Pagination } from '@atelier/contracts/common';
import { workspaceAccess } from '../access.js';
import { newApiKeySecret, tokenHash } from '../auth/secrets.js';
import { fail, validationHook } from '../errors.js';
import { kept } from '../kept/index.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { presentApiKey } from '../presenters/api-key.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('API keys');

const KeyIdParam = z.object({
  key_id: z
    .string()
    .uuid()
    .openapi({ param: { name: 'key_id', in: 'path' } }),
});

/** A workspace-bound key sees and revokes only keys bound to the same workspace; it acts only inside it. */
const keyScope = (c: Context<AppEnv>) => ({
  userId: c.get('principal').userId,
  onlyWorkspaceId: c.get('principal').keyWorkspaceId ?? null,
});

export const apiKeyRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('POST /v1/api-keys', { body: CreateApiKeyRequest }, { 201: CreatedApiKey }), async (c) => {
    const body = c.req.valid('json');
    const principal = c.get('principal');
    // A key can be bound only to a workspace the caller can reach (and never widen a bound key).
    const workspaceId = body.workspaceId
      ? (await workspaceAccess(callerOf(c), body.workspaceId)).workspaceId
      : (principal.keyWorkspaceId ?? null);
    const secret = newApiKeySecret();
    const key = await createApiKey(c.get('services').db, {
      id: newUuid(),
      userId: principal.userId,
      workspaceId,
      name: body.name,
      prefix: secret.slice(0, 10),
      secretHash: tokenHash(secret),
    });
    return c.json({ ...presentApiKey(key), secret }, 201);
  })
  .openapi(operation('GET /v1/api-keys', { query: Pagination }, { 200: ApiKeyList }), async (c) => {
    const page = await listApiKeys(c.get('services').db, keyScope(c), c.req.valid('query'));
    return c.json(presentPage(page, presentApiKey), 200);
  })
  .openapi(operation('GET /v1/api-keys/{key_id}', { params: KeyIdParam }, { 200: ApiKey }), async (c) => {
    const key = await getApiKey(c.get('services').db, keyScope(c), c.req.valid('param').key_id);
    if (!key) throw fail.notFound('API key');
    return c.json(presentApiKey(key), 200);
  })
  .openapi(operation('DELETE /v1/api-keys/{key_id}', { params: KeyIdParam }, { 200: ApiKey }), async (c) => {
    const { key_id } = c.req.valid('param');
    const key = await revokeApiKey(c.get('services').db, keyScope(c), key_id);
    kept(c.get('services')).apiKeys.forget();
    if (!key) throw fail.notFound('API key');
    return c.json(presentApiKey(key), 200);
  });
