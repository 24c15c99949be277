import { createLocalProvider } from './local/index';
import { type OpenAiOptions, createOpenAiProvider } from './openai/index';
import type { ClassifierProvider, ImageProvider, ProviderSet, TextProvider, VideoProvider } from './types';

export * from './types';
export * from './call-keys';

export interface ProviderOptions {
  /** Simulated latency of every local model call. */
  localLatencyMs?: number;
  /** Enables the `openai` provider (any OpenAI-compatible API). */
  openai?: OpenAiOptions;
}

interface Adapter {
  text?: TextProvider;
  image?: ImageProvider;
  video?: VideoProvider;
  classifier?: ClassifierProvider;
}

/** The adapters by provider name, as the model registry's `provider` field names them. */
export function createProviders(opts: ProviderOptions = {}): ProviderSet {
  const adapters: Record<string, Adapter> = {
    local: createLocalProvider({ latencyMs: opts.localLatencyMs }),
    ...(opts.openai ? { openai: createOpenAiProvider(opts.openai) } : {}),
  };
  return {
    text: (name) => adapters[name]?.text,
    image: (name) => adapters[name]?.image,
    video: (name) => adapters[name]?.video,
    classifier: (name) => adapters[name]?.classifier,
  };
}
