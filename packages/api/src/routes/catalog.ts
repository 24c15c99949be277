import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { listPublicWorkflows } from '@atelier/db';
import { CatalogWorkflow, CatalogWorkflowSummary, Model } from '@atelier/contracts/catalog';
import { Pagination, listOf } from '@atelier/contracts/common';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { errorResponses, fail, validationHook } from '../errors.js';
import { presentCatalogSummary, presentCatalogWorkflow } from '../presenters/catalog.js';
import type { AppEnv } from '../services.js';
import { json, secured } from '../http/route.js';

export const catalogRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      method: 'get',
      path: '/v1/catalog/workflows',
      tags: ['catalog'],
      summary: 'The public catalog of runnable workflows (no credentials needed)',
      description:
        'Public, no credential: the public workflows anyone can run, each with its purpose, rough duration, whether QA is included, and what is provided and returned. Draft and internal workflows never appear.',
      request: { query: Pagination },
      responses: { 200: { description: 'Summaries', ...json(listOf(CatalogWorkflowSummary, 'CatalogList')) }, ...errorResponses(422) },
    }),
    async (c) => {
      const { offset, limit } = c.req.valid('query');
      const all = await listPublicWorkflows(c.get('services').db);
      const items = all.slice(offset, offset + limit).map((w) => presentCatalogSummary(w, w.definition as WorkflowDefinition));
      return c.json({ items, total: all.length }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/v1/catalog/workflows/{id}',
      tags: ['catalog'],
      summary: 'A public workflow: the complete intake contract, prompts and bindings redacted',
      description:
        'Public, no credential: the complete intake contract of a public workflow, with prompts and provider bindings redacted. A workflow that is not public is 404.',
      request: {
        params: z.object({
          id: z
            .string()
            .max(200)
            .openapi({ param: { name: 'id', in: 'path' } }),
        }),
      },
      responses: { 200: { description: 'The workflow', ...json(CatalogWorkflow) }, ...errorResponses(404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const found = (await listPublicWorkflows(c.get('services').db)).find((w) => w.id === id);
      if (!found) throw fail.notFound('workflow', id);
      return c.json(presentCatalogWorkflow(found, found.definition as WorkflowDefinition), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/v1/models',
      summary: 'The model registry that bindings and per-run overrides name',
      description:
        "The model registry: the ids a workflow's providers map and a run's providers overrides may name. Any signed-in caller may read it.",
      ...secured('catalog'),
      responses: { 200: { description: 'Models', ...json(listOf(Model, 'ModelList')) }, ...errorResponses(401) },
    }),
    (c) => {
      const items = c
        .get('services')
        .models.models.map((m) => ({ ...m, capabilities: [...m.capabilities], snapshotOf: m.snapshotOf ?? null }));
      return c.json({ items, total: items.length }, 200);
    },
  );
