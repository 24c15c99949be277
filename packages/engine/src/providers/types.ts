import type { ModelEntry } from '@atelier/domain';

/**
 * What every model provider adapter implements. Requests carry the registry entry of the model, so an
 * adapter prices calls from the registry and from the usage its API reports.
 */
export interface TextRequest {
  model: ModelEntry;
  prompt: string;
  jsonSchema?: Record<string, unknown>;
  /** Varies between schema retries so a deterministic model can answer differently. */
  seed: string;
  signal?: AbortSignal;
  /** Through the provider's batch interface: slower, cheaper. Only set for models with `batch`. */
  batch?: boolean;
  /**
   * Stable across re-executions of the same logical call (providerCallKey: run, step index, seed), distinct
   * between calls. Adapters whose API accepts one pass it on (openai: the `Idempotency-Key` header).
   */
  idempotencyKey?: string;
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

export interface ImageRequest {
  model: ModelEntry;
  prompt: string;
  width: number;
  height: number;
  seed: string;
  transparentBackground: boolean;
  signal?: AbortSignal;
  batch?: boolean;
  /** See TextRequest.idempotencyKey. */
  idempotencyKey?: string;
}

export interface GeneratedImage {
  bytes: Buffer;
  mimeType: string;
  /** True when the model itself delivered an alpha channel (no post-processing needed). */
  nativeTransparency: boolean;
  costUsd: number;
}

export interface ImageProvider {
  generate(req: ImageRequest): Promise<GeneratedImage>;
}

export interface VideoRequest {
  model: ModelEntry;
  prompt: string;
  width: number;
  height: number;
  fps: number;
  durationSeconds: number;
  generateAudio: boolean;
  seed: string;
  signal?: AbortSignal;
  /** See TextRequest.idempotencyKey. */
  idempotencyKey?: string;
}

export interface GeneratedVideo {
  /** An MP4 file. */
  bytes: Buffer;
  mimeType: 'video/mp4';
  costUsd: number;
}

export interface VideoProvider {
  generate(req: VideoRequest): Promise<GeneratedVideo>;
}

export type ClassifierPolicy = 'safety' | 'quality';

export interface ClassifyRequest {
  model: ModelEntry;
  policy: ClassifierPolicy;
  text: string;
  signal?: AbortSignal;
  /** Names the call within its step (the gate judged), for its idempotency key; classifiers need no seed otherwise. */
  seed?: string;
  /** See TextRequest.idempotencyKey. */
  idempotencyKey?: string;
}

export interface Verdict {
  pass: boolean;
  reasons: string[];
  verdict: string;
  costUsd: number;
}

export interface ClassifierProvider {
  classify(req: ClassifyRequest): Promise<Verdict>;
}

export interface ProviderSet {
  text(provider: string): TextProvider | undefined;
  image(provider: string): ImageProvider | undefined;
  video(provider: string): VideoProvider | undefined;
  classifier(provider: string): ClassifierProvider | undefined;
}

/** A provider's failure that is worth retrying (timeouts, 429, 5xx). Anything else fails the step. */
export class TransientProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The provider said 429, too many requests: back-pressure, not a failure. The capacity layer (capacity.ts)
 * waits (`retryAfterMs` when the provider said how long) and calls again, without spending the step's attempts.
 */
export class ProviderThrottledError extends TransientProviderError {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message, 429);
  }
}

/** A provider's refusal that would fail the same way again (bad request, unknown model, auth). */
export class PermanentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
