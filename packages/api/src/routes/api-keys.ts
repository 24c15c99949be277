import type { Context } from 'hono';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '@atelier/contracts/auth';
import { Pagination, listOf } from '@atelier/contracts/common';
import { workspaceAccess } from '../access.js';
import { newApiKeySecret, tokenHash } from '../auth/secrets.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { kept } from '../kept/index.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentApiKey } from '../presenters/api-key.js';
import { presentPage } from '../presenters/page.js';

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
  .openapi(
    createRoute({
      ...secured('API keys'),
      method: 'post',
      path: '/v1/api-keys',
      summary: 'Create an API key; the secret is shown only in this response',
      description:
        "Creates an API key carrying the permissions of the signed-in account (not a reduced role), optionally bound to one workspace; the secret is shown once here and only its hash is stored. Binding to a workspace outside the caller's reach is 403 or 404, and a workspace-bound key cannot widen its binding.",
      request: { body: jsonBody(CreateApiKeyRequest) },
      responses: { 201: { description: 'Created', ...json(CreatedApiKey) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
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
    },
  )
  .openapi(
    createRoute({
      ...secured('API keys'),
      method: 'get',
      path: '/v1/api-keys',
      summary: 'List your live API keys (never their secrets)',
      description:
        "Lists the caller's live keys, paged, with their prefixes but never their secrets. A workspace-bound key sees only keys bound to the same workspace.",
      request: { query: Pagination },
      responses: { 200: { description: 'Keys', ...json(listOf(ApiKey, 'ApiKeyList')) }, ...errorResponses(401, 422) },
    }),
    async (c) => {
      const page = await listApiKeys(c.get('services').db, keyScope(c), c.req.valid('query'));
      return c.json(presentPage(page, presentApiKey), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('API keys'),
      method: 'get',
      path: '/v1/api-keys/{key_id}',
      summary: 'One of your API keys',
      description:
        "One of the caller's keys, without its secret. Another account's key, or one outside a workspace-bound key's workspace, is 404.",
      request: { params: KeyIdParam },
      responses: { 200: { description: 'The key', ...json(ApiKey) }, ...errorResponses(401, 404, 422) },
    }),
    async (c) => {
      const key = await getApiKey(c.get('services').db, keyScope(c), c.req.valid('param').key_id);
      if (!key) throw fail.notFound('API key');
      return c.json(presentApiKey(key), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('API keys'),
      method: 'delete',
      path: '/v1/api-keys/{key_id}',
      summary: 'Revoke an API key; it stops working at once',
      description: "Revokes one of the caller's keys: requests with it are refused with 401 from now on. Another account's key is 404.",
      request: { params: KeyIdParam },
      responses: { 200: { description: 'The revoked key', ...json(ApiKey) }, ...errorResponses(401, 404, 422) },
    }),
    async (c) => {
      const { key_id } = c.req.valid('param');
      const key = await revokeApiKey(c.get('services').db, keyScope(c), key_id);
      kept(c.get('services')).apiKeys.forget();
      if (!key) throw fail.notFound('API key');
      return c.json(presentApiKey(key), 200);
    },
  );
