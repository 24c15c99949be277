/**
 * The model registry: what `GET /v1/models` lists and what workflow bindings and per-run overrides are
 * validated against. Entries are data; the engine's provider adapters give them behaviour.
 */
import anthropicModels from '../models/anthropic.json' with { type: 'json' };
import googleModels from '../models/google.json' with { type: 'json' };
import localModels from '../models/local.json' with { type: 'json' };
import falModels from '../models/fal.json' with { type: 'json' };
import openaiModels from '../models/openai.json' with { type: 'json' };
import replicateModels from '../models/replicate.json' with { type: 'json' };
import { MAX_BINDING_MODELS } from '@atelier/contracts/common';
import type { ModelBinding } from './bindings.js';

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

/**
 * Each provider's models and prices, as data (`packages/domain/models/<provider>.json`): a new model or a
 * price change is an edit of that file, no code. A provider added to the engine's registry
 * (engine/src/providers/registry.ts) adds its file here.
 */
export const MODEL_CATALOG: Readonly<Record<string, readonly ModelEntry[]>> = {
  local: localModels as ModelEntry[],
  openai: openaiModels as ModelEntry[],
  anthropic: anthropicModels as ModelEntry[],
  google: googleModels as ModelEntry[],
  fal: falModels as ModelEntry[],
  replicate: replicateModels as ModelEntry[],
};

/** Always offered: the offline stand-ins (`local/image-alpha-1` draws a transparent backdrop itself). */
export const LOCAL_MODELS: readonly ModelEntry[] = MODEL_CATALOG.local ?? [];
export const OPENAI_MODELS: readonly ModelEntry[] = MODEL_CATALOG.openai ?? [];

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
  /**
   * Why binding `binding` (one model id, or an ordered list with fallbacks) to `role` is refused, or null when
   * it is fine: every id of a list is held to what a single binding is, and no id may appear twice.
   */
  bindingProblem(role: string, binding: ModelBinding): string | null {
    if (typeof binding === 'string') return this.modelProblem(role, binding);
    if (binding.length === 0) return 'an empty list binds no model';
    if (binding.length > MAX_BINDING_MODELS) return `a binding lists at most ${MAX_BINDING_MODELS} models (the primary and its fallbacks)`;
    for (const [index, modelId] of binding.entries()) {
      if (typeof modelId !== 'string') return `entry ${index + 1} of the list is not a model id`;
      if (binding.indexOf(modelId) !== index) return `${modelId} is listed more than once`;
      const problem = this.modelProblem(role, modelId);
      if (problem) return binding.length === 1 ? problem : `${index === 0 ? 'primary' : `fallback ${index}`}: ${problem}`;
    }
    return null;
  }
  private modelProblem(role: string, modelId: string): string | null {
    const model = this.byId.get(modelId);
    if (!model) return `${modelId} is not a registered model (see GET /v1/models)`;
    const kind = ROLE_KINDS[role];
    if (kind && model.kind !== kind)
      return `${modelId} is ${article(model.kind)} ${model.kind} model; role ${role} needs ${article(kind)} ${kind} model`;
    return null;
  }
}

/** The models of `local` and of every configured provider: what GET /v1/models lists. */
export function buildModelRegistry(configured: Iterable<string>): ModelRegistry {
  const providers = new Set(['local', ...configured]);
  return new ModelRegistry([...providers].flatMap((name) => MODEL_CATALOG[name] ?? []));
}
