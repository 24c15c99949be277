import { OpenAPIHono, z } from '@hono/zod-openapi';
import { listPublicWorkflows } from '@atelier/db';
import { CatalogWorkflow, CatalogList, ModelList } from '@atelier/contracts/catalog';
import { Pagination } from '@atelier/contracts/common';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { fail, validationHook } from '../errors.js';
import { presentCatalogSummary, presentCatalogWorkflow } from '../presenters/catalog.js';
import type { AppEnv } from '../services.js';
import { operationsOf } from '../http/operations.js';

const publicOperation = operationsOf('catalog', 'public');
const operation = operationsOf('catalog');

export const catalogRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(publicOperation('GET /v1/catalog/workflows', { query: Pagination }, { 200: CatalogList }), async (c) => {
    const { offset, limit } = c.req.valid('query');
    const all = await listPublicWorkflows(c.get('services').db);
    const items = all.slice(offset, offset + limit).map((w) => presentCatalogSummary(w, w.definition as WorkflowDefinition));
    return c.json({ items, total: all.length }, 200);
  })
  .openapi(
    publicOperation(
      'GET /v1/catalog/workflows/{id}',
      {
        params: z.object({
          id: z
            .string()
            .max(200)
            .openapi({ param: { name: 'id', in: 'path' } }),
        }),
      },
      { 200: CatalogWorkflow },
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const found = (await listPublicWorkflows(c.get('services').db)).find((w) => w.id === id);
      if (!found) throw fail.notFound('workflow', id);
      return c.json(presentCatalogWorkflow(found, found.definition as WorkflowDefinition), 200);
    },
  )
  .openapi(operation('GET /v1/models', {}, { 200: ModelList }), (c) => {
    const items = c
      .get('services')
      .models.models.map((m) => ({ ...m, capabilities: [...m.capabilities], snapshotOf: m.snapshotOf ?? null }));
    return c.json({ items, total: items.length }, 200);
  });
