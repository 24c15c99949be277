import { z } from '@hono/zod-openapi';
import { Email, LIMITS, Name } from './common.js';

// Left inline (not a named component): the generator drops `nullable` from a $ref to a named schema.
export const AccountDeletion = z.object({
  status: z.enum(['pending', 'approved']).describe('pending: waiting for an operator, can be withdrawn; approved: purge scheduled'),
  requestedAt: z.string(),
  reason: z.string().nullable(),
});

export const User = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    name: z.string(),
    defaultWorkspaceId: z.string().uuid().nullable().describe('The first workspace the user was made a member of'),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletion: AccountDeletion.nullable().describe('The standing account deletion request, if any'),
  })
  .openapi('User');

export const UserUpdateRequest = z
  .object({
    name: Name.optional(),
    email: Email.optional(),
    currentPassword: z
      .string()
      .min(1)
      .max(LIMITS.password)
      .optional()
      .describe('Required with newPassword, and with an email other than the current one'),
    newPassword: z.string().min(12).max(LIMITS.password).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.newPassword !== undefined && body.currentPassword === undefined) {
      ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: 'currentPassword is required to set newPassword' });
    }
    if (body.currentPassword !== undefined && body.newPassword === undefined && body.email === undefined) {
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: 'currentPassword goes with newPassword or email' });
    }
  })
  .openapi('UserUpdateRequest', { example: { name: 'Ada King' } });

export const AccountDeletionRequest = z
  .object({ reason: z.string().trim().max(LIMITS.shortText).nullish() })
  .openapi('AccountDeletionRequest', { example: { reason: 'Closing the studio account.' } });
