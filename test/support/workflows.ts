/**
 * Workflow definitions tests author through the API. `notesWorkflow` is the smallest runnable one: an llm
 * step on the offline `local` model and a code step that keeps its answer, as a knowledge article.
 */
export function notesWorkflow(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: 'Notes',
    description: 'Notes on a topic',
    artifactClass: 'knowledge',
    version: '2026.11.01',
    cadence: 'on-demand',
    intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true, description: 'What to write notes on' }] },
    runtimeSteps: [
      { id: 'step-1', name: 'Write notes', kind: 'llm', role: 'textGenerator', prompt: 'Write short notes on {{intake.topic}}' },
      { id: 'step-2', name: 'Keep the notes', kind: 'code', function: 'identity', inputPath: 'step-1' },
    ],
    gates: [],
    providers: { textGenerator: 'local/text-1' },
    budgetPolicy: {},
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
    ...extra,
  };
}
