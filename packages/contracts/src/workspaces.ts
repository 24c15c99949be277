import { z } from '@hono/zod-openapi';
import { LIMITS, Name, Pagination, QueryBoolean, uuidParam, listOf } from './common.js';

export const ROLE_VALUES = ['owner', 'admin', 'member'] as const;
export const RoleSchema = z.enum(ROLE_VALUES).openapi('Role');

export const Workspace = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    personal: z.boolean().describe('The workspace made at registration'),
    role: RoleSchema.describe("The caller's role in this workspace"),
    createdAt: z.string(),
  })
  .openapi('Workspace');

export const WorkspaceCreateRequest = z.object({ name: Name }).openapi('WorkspaceCreateRequest', { example: { name: 'Northwind Studio' } });

export const WorkspaceIdParam = z.object({
  workspace_id: uuidParam('workspace_id'),
});

export const WorkspaceMember = z
  .object({
    userId: z.string().uuid(),
    email: z.string(),
    name: z.string(),
    role: RoleSchema,
    joinedAt: z.string(),
  })
  .openapi('WorkspaceMember');

export const MemberAddRequest = z
  .object({ email: z.string().trim().min(1).max(LIMITS.email), role: RoleSchema })
  .openapi('MemberAddRequest', { example: { email: 'grace@studio.example', role: 'member' } });

export const MemberUpdateRequest = z.object({ role: RoleSchema }).openapi('MemberUpdateRequest', { example: { role: 'admin' } });

export const MemberParams = WorkspaceIdParam.extend({
  user_id: uuidParam('user_id'),
});

export const Project = z
  .object({
    id: z.string().uuid(),
    workspaceId: z.string().uuid(),
    name: z.string(),
    kind: z.enum(['project', 'brand']),
    description: z.string().nullable(),
    clientId: z.string().uuid().nullable(),
    archived: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Project');

export const ProjectCreateRequest = z
  .object({
    name: Name,
    description: z.string().trim().max(LIMITS.text).nullish(),
    // Brands are projects of kind brand created together with their profile through /v1/brands.
    kind: z.enum(['project']).default('project'),
  })
  .openapi('ProjectCreateRequest', {
    example: { name: 'Spring newsletter', description: 'Research reports and illustrations for the spring issue' },
  });

export const ProjectUpdateRequest = z
  .object({
    name: Name.optional(),
    description: z.string().trim().max(LIMITS.text).nullable().optional(),
    archived: z.boolean().optional(),
    clientId: z.string().uuid().nullable().optional().describe('Links the project to a client of its workspace; null unlinks'),
  })
  .openapi('ProjectUpdateRequest', { example: { name: 'Spring newsletter 2027', clientId: '1e8a6c3d-5b7f-4a92-b0d4-7c2f9e1a3b65' } });

export const ProjectParams = WorkspaceIdParam.extend({
  project_id: uuidParam('project_id'),
});

export const ListProjectsQuery = Pagination.extend({
  includeArchived: QueryBoolean,
  clientId: z
    .union([z.literal('none'), z.string().uuid()])
    .optional()
    .openapi({ param: { name: 'clientId', in: 'query' }, description: 'A client id, or none for projects linked to no client' }),
});

export const ProjectList = listOf(Project, 'ProjectList');

export const WorkspaceList = listOf(Workspace, 'WorkspaceList');

export const WorkspaceMemberList = listOf(WorkspaceMember, 'WorkspaceMemberList');
