import { anthropicProvider } from './anthropic/index.js';
import { googleProvider } from './google/index.js';
import { falProvider } from './fal/index.js';
import { withJobsAwaited } from './jobs.js';
import { openaiProvider } from './openai/index.js';
import { replicateProvider } from './replicate/index.js';
import type { SettingsSource } from './settings.js';
import type { Adapter, ProviderDefinition } from './types.js';

/** Every provider, by name: the one place a new provider is added. */
export const PROVIDERS = {
  openai: openaiProvider,
  anthropic: anthropicProvider,
  google: googleProvider,
  fal: falProvider,
  replicate: replicateProvider,
} as const;

type Definitions = typeof PROVIDERS;
export type ProviderName = keyof Definitions;

/** The options of each configured provider (a test points one at a loopback server by naming it here). */
export type ConfiguredProviders = {
  [Name in ProviderName]?: Definitions[Name] extends ProviderDefinition<infer Options> ? Options : never;
};

export function configuredProviders(settings: SettingsSource): ConfiguredProviders {
  const configured: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(PROVIDERS) as Array<[ProviderName, ProviderDefinition<unknown>]>) {
    const options = definition.fromSettings(settings);
    if (options !== undefined) configured[name] = options;
  }
  return configured as ConfiguredProviders;
}

export function createAdapters(configured: ConfiguredProviders): Record<string, Adapter> {
  const adapters: Record<string, Adapter> = {};
  for (const [name, options] of Object.entries(configured)) {
    const definition = PROVIDERS[name as ProviderName] as ProviderDefinition<unknown> | undefined;
    if (definition && options !== undefined) adapters[name] = withJobsAwaited(definition.create(options));
  }
  return adapters;
}
