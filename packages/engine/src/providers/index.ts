import type { Counter } from 'prom-client';
import type { Db } from '@atelier/db';
import { withCapacity } from './capacity';
import { createLocalProvider } from './local/index';
import { type OpenAiOptions, createOpenAiProvider } from './openai/index';
import type { ProviderLimits } from './provider-limits';
import type { ClassifierProvider, ImageProvider, ProviderSet, TextProvider, VideoProvider } from './types';

export * from './types';
export * from './call-keys';
export { type ProviderLimits, parseProviderLimits, providerLimitsFromEnv } from './provider-limits';

export interface ProviderOptions {
  /** Simulated latency of every local model call. */
  localLatencyMs?: number;
  /** Enables the `openai` provider (any OpenAI-compatible API). */
  openai?: OpenAiOptions;
  /** Fleet-wide capacity per provider or model (ATELIER_PROVIDER_LIMITS, provider-limits.ts); none: unlimited. */
  limits?: ProviderLimits;
}

/** What holds the fleet's capacity: the database every worker shares, and the throttled-time counter. */
export interface CapacityDeps {
  db?: Db;
  throttled?: Counter<'provider' | 'reason'>;
}

interface Adapter {
  text?: TextProvider;
  image?: ImageProvider;
  video?: VideoProvider;
  classifier?: ClassifierProvider;
}

/**
 * The adapters by provider name, as the model registry's `provider` field names them, each call held to the
 * fleet's capacity (capacity.ts): limits where configured, a 429 waited out everywhere.
 */
export function createProviders(opts: ProviderOptions = {}, capacity: CapacityDeps = {}): ProviderSet {
  const adapters: Record<string, Adapter> = {
    local: createLocalProvider({ latencyMs: opts.localLatencyMs }),
    ...(opts.openai ? { openai: createOpenAiProvider(opts.openai) } : {}),
  };
  return withCapacity(
    {
      text: (name) => adapters[name]?.text,
      image: (name) => adapters[name]?.image,
      video: (name) => adapters[name]?.video,
      classifier: (name) => adapters[name]?.classifier,
    },
    { limits: opts.limits ?? {}, ...capacity },
  );
}
