import type { ModelEntry } from '@atelier/domain';
import { textCallCost } from '@atelier/domain';
import { localTextAnswer } from './local-text';

export interface TextRequest {
  model: ModelEntry;
  prompt: string;
  jsonSchema?: Record<string, unknown>;
  /** Varies between schema retries so a deterministic model can answer differently. */
  seed: string;
  signal?: AbortSignal;
}

export interface TextCompletion {
  text: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface TextProvider {
  complete(req: TextRequest): Promise<TextCompletion>;
}

export interface ProviderSet {
  text(provider: string): TextProvider | undefined;
}

export interface ProviderOptions {
  /** Simulated latency of every local model call, to make the local provider behave like a remote one. */
  localLatencyMs?: number;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    });
  });
}

export function createProviders(opts: ProviderOptions = {}): ProviderSet {
  const local: TextProvider = {
    async complete(req) {
      await delay(opts.localLatencyMs ?? 0, req.signal);
      const answer = localTextAnswer({ prompt: req.prompt, jsonSchema: req.jsonSchema, seed: `${req.model.id}:${req.seed}` });
      return {
        text: answer.text,
        inputTokens: answer.usage.inputTokens,
        outputTokens: answer.usage.outputTokens,
        costUsd: textCallCost(req.model, answer.usage.inputTokens, answer.usage.outputTokens),
      };
    },
  };
  const text: Record<string, TextProvider> = { local };
  return { text: (provider) => text[provider] };
}
