import { z } from '@hono/zod-openapi';
import { Email, LIMITS, Name, listOf } from './common.js';

export const RegisterRequest = z
  .object({
    email: Email,
    password: z.string().min(12).max(LIMITS.password),
    name: Name,
  })
  .openapi('RegisterRequest', { example: { email: 'ada@studio.example', password: 'correct-horse-battery-staple', name: 'Ada Lovelace' } });

export const LoginRequest = z
  .object({ email: z.string().trim().min(1).max(LIMITS.email), password: z.string().min(1).max(LIMITS.password) })
  .openapi('LoginRequest', { example: { email: 'ada@studio.example', password: 'correct-horse-battery-staple' } });

export const RefreshRequest = z
  .object({ refreshToken: z.string().min(1).max(LIMITS.opaque) })
  .openapi('RefreshRequest', { example: { refreshToken: 'rt_6f1c9d2e8a4b4f0c9e7d3a1b5c8f2e6d' } });

export const UserSummary = z.object({ id: z.string().uuid(), email: z.string(), name: z.string() }).openapi('UserSummary');

export const TokenResponse = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    tokenType: z.literal('bearer'),
    expiresIn: z.number().int().describe('Seconds until the access token expires'),
    user: UserSummary,
  })
  .openapi('TokenResponse');

export const CreateApiKeyRequest = z
  .object({ name: Name, workspaceId: z.string().uuid().nullish() })
  .openapi('CreateApiKeyRequest', { example: { name: 'CI pipeline', workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34' } });

export const ApiKey = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the secret, to recognise the key'),
    workspaceId: z.string().uuid().nullable(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi('ApiKey');

export const CreatedApiKey = ApiKey.extend({ secret: z.string().describe('Shown once; only its hash is stored') }).openapi('CreatedApiKey');

export const ApiKeyList = listOf(ApiKey, 'ApiKeyList');
