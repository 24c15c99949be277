import { type CapacityOptions, withCapacity } from './capacity.js';
import { createLocalProvider } from './local/index.js';
import type { ProviderLimits } from './provider-limits.js';
import { type ConfiguredProviders, createAdapters } from './registry.js';
import type { Adapter, ProviderSet } from './types.js';

export * from './types.js';
export * from './call-keys.js';
export { type ProviderLimits, parseProviderLimits, providerLimitsFromEnv } from './provider-limits.js';
export { type ConfiguredProviders, PROVIDERS, configuredProviders } from './registry.js';
export { type SettingsSource, settingsFrom } from './settings.js';

/** The configured providers' options by name (registry.ts), and what applies to all of them. */
export interface ProviderOptions extends ConfiguredProviders {
  /** Simulated latency of every local model call. */
  localLatencyMs?: number;
  /** Fleet-wide capacity per provider or model (ATELIER_PROVIDER_LIMITS, provider-limits.ts); none: unlimited. */
  limits?: ProviderLimits;
}

/** What holds the fleet's capacity: the database every worker shares, and its counters (capacity.ts). */
export type CapacityDeps = Omit<CapacityOptions, 'limits'>;

/**
 * The adapters by provider name, as the model registry's `provider` field names them, each call held to the
 * fleet's capacity (capacity.ts): limits where configured, a 429 waited out everywhere.
 */
export function createProviders(opts: ProviderOptions = {}, capacity: CapacityDeps = {}): ProviderSet {
  const { localLatencyMs, limits, ...configured } = opts;
  const adapters: Record<string, Adapter> = { ...createAdapters(configured), local: createLocalProvider({ latencyMs: localLatencyMs }) };
  return withCapacity(
    {
      text: (name) => adapters[name]?.text,
      image: (name) => adapters[name]?.image,
      video: (name) => adapters[name]?.video,
      classifier: (name) => adapters[name]?.classifier,
      jobs: (kind, name) => (kind === 'image' ? adapters[name]?.imageJobs : adapters[name]?.videoJobs) as never,
      webhooks: (name) => adapters[name]?.webhooks,
      batches: (name) => adapters[name]?.batches,
    },
    { limits: limits ?? {}, ...capacity },
  );
}
