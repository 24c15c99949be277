import { loadBuiltinWorkflows } from '@atelier/catalog';
import { newRunRow } from '@atelier/db';
import { LOCAL_MODELS, ModelRegistry } from '@atelier/domain';

/** plan-research-report, the definition the database tests record their runs of. */
export const researchDefinition = loadBuiltinWorkflows().find((w) => w.id === 'plan-research-report')!;

/** A plan-research-report run's row in `status`, as the gateway would insert it (through the API key). */
export function researchRunRow(id: string, workspaceId: string, status: string, topic: string) {
  return newRunRow(
    {
      id,
      workspaceId,
      projectId: null,
      definition: researchDefinition,
      intake: { topic },
      bindings: researchDefinition.providers,
      createdVia: 'api_key',
      status,
    },
    new ModelRegistry(LOCAL_MODELS),
  );
}
