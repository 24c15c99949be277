/**
 * The model registry: what `GET /v1/models` lists and what workflow bindings and per-run overrides are
 * validated against. Entries are data; the engine's provider adapters give them behaviour.
 */
export const MODEL_KINDS = ['text', 'image', 'video', 'classifier', 'embedding'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

export type PricingUnit = 'per_1k_input_tokens' | 'per_1k_output_tokens' | 'per_image' | 'per_second';

export interface ModelEntry {
  id: string;
  provider: string;
  kind: ModelKind;
  capabilities: string[];
  pricing: Partial<Record<PricingUnit, number>> & { currency: 'USD' };
  batch: boolean;
  status: 'available' | 'deprecated';
  /** A dated snapshot pins the model this alias points at (`<provider>/<model>-<date>`). */
  snapshotOf?: string;
}

export const LOCAL_MODELS: readonly ModelEntry[] = [
  {
    id: 'local/text-1',
    provider: 'local',
    kind: 'text',
    capabilities: ['text', 'json-schema'],
    pricing: { per_1k_input_tokens: 0.0005, per_1k_output_tokens: 0.0015, currency: 'USD' },
    batch: true,
    status: 'available',
  },
  {
    id: 'local/text-1-2026-11-01',
    provider: 'local',
    kind: 'text',
    capabilities: ['text', 'json-schema'],
    pricing: { per_1k_input_tokens: 0.0005, per_1k_output_tokens: 0.0015, currency: 'USD' },
    batch: true,
    status: 'available',
    snapshotOf: 'local/text-1',
  },
  {
    id: 'local/image-1',
    provider: 'local',
    kind: 'image',
    capabilities: ['image', 'background-removal'],
    pricing: { per_image: 0.02, currency: 'USD' },
    batch: true,
    status: 'available',
  },
  {
    id: 'local/video-1',
    provider: 'local',
    kind: 'video',
    capabilities: ['video'],
    pricing: { per_second: 0.05, currency: 'USD' },
    batch: false,
    status: 'available',
  },
  {
    id: 'local/classifier-1',
    provider: 'local',
    kind: 'classifier',
    capabilities: ['safety', 'quality'],
    pricing: { per_1k_input_tokens: 0.0001, currency: 'USD' },
    batch: true,
    status: 'available',
  },
  {
    id: 'local/embed-1',
    provider: 'local',
    kind: 'embedding',
    capabilities: ['embedding'],
    pricing: { per_1k_input_tokens: 0.00002, currency: 'USD' },
    batch: true,
    status: 'available',
  },
  /** Draws a transparent backdrop itself when asked (native transparency); otherwise like local/image-1. */
  {
    id: 'local/image-alpha-1',
    provider: 'local',
    kind: 'image',
    capabilities: ['image', 'transparency'],
    pricing: { per_image: 0.03, currency: 'USD' },
    batch: true,
    status: 'available',
  },
];

/** The model kind each abstract role needs; a binding or override of another kind is refused. */
export const ROLE_KINDS: Record<string, ModelKind> = {
  promptWriter: 'text',
  textGenerator: 'text',
  researcher: 'text',
  textGate: 'text',
  agent: 'text',
  imageGenerator: 'image',
  backgroundRemover: 'image',
  videoGenerator: 'video',
  classifier: 'classifier',
  embedder: 'embedding',
};

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

export class ModelRegistry {
  private readonly byId: Map<string, ModelEntry>;
  constructor(readonly models: readonly ModelEntry[]) {
    this.byId = new Map(models.map((m) => [m.id, m]));
  }
  get(id: string): ModelEntry | undefined {
    return this.byId.get(id);
  }
  /** Why binding `modelId` to `role` is refused, or null when it is fine. */
  bindingProblem(role: string, modelId: string): string | null {
    const model = this.byId.get(modelId);
    if (!model) return `${modelId} is not a registered model (see GET /v1/models)`;
    const kind = ROLE_KINDS[role];
    if (kind && model.kind !== kind)
      return `${modelId} is ${article(model.kind)} ${model.kind} model; role ${role} needs ${article(kind)} ${kind} model`;
    return null;
  }
}

const openaiText = (id: string, input: number, output: number, snapshotOf?: string): ModelEntry => ({
  id,
  provider: 'openai',
  kind: 'text',
  capabilities: ['text', 'json-schema'],
  pricing: { per_1k_input_tokens: input, per_1k_output_tokens: output, currency: 'USD' },
  batch: false,
  status: 'available',
  ...(snapshotOf ? { snapshotOf } : {}),
});

/** Offered when the openai provider is configured (OPENAI_API_KEY or OPENAI_BASE_URL). */
export const OPENAI_MODELS: readonly ModelEntry[] = [
  openaiText('openai/gpt-4o-mini', 0.00015, 0.0006),
  openaiText('openai/gpt-4o', 0.0025, 0.01),
  openaiText('openai/gpt-4o-2024-08-06', 0.0025, 0.01, 'openai/gpt-4o'),
  {
    id: 'openai/gpt-image-1',
    provider: 'openai',
    kind: 'image',
    capabilities: ['image', 'transparency'],
    pricing: { per_image: 0.04, currency: 'USD' },
    batch: false,
    status: 'available',
  },
];

export function buildModelRegistry(opts: { openai: boolean }): ModelRegistry {
  return new ModelRegistry(opts.openai ? [...LOCAL_MODELS, ...OPENAI_MODELS] : LOCAL_MODELS);
}
