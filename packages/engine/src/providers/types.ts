import type { JudgedGateType, ModelEntry } from '@atelier/domain';
import type { SettingsSource } from './settings.js';

/**
 * What every model provider adapter implements. Requests carry the registry entry of the model, so an
 * adapter prices calls from the registry and from the usage its API reports.
 */
/**
 * A request that has somewhere else to go: past `throttlePatienceMs` of waiting out 429s, the capacity layer
 * (capacity.ts) throws the ProviderThrottledError instead of waiting on, and the step moves to its next model
 * (activities/steps/fallbacks.ts). Absent: 429s are waited out for as long as it takes.
 */
export interface ThrottledRequest {
  throttlePatienceMs?: number;
}

export interface TextRequest extends ThrottledRequest {
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
  /**
   * Called with each piece of the answer as the model writes it, when the adapter can stream (the
   * provider's streaming protocol; `local` over its simulated latency); the pieces concatenate to the
   * answer's text, or for a structured answer to the JSON the model wrote. The completion returned is the
   * same as without it. A stream cut after it began is a TransientProviderError.
   */
  onDelta?(text: string): void;
}

export interface TextCompletion {
  text: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Served again from the engine's own store (a job's or a batch's result): its spend is already recorded. */
  recorded?: true;
  /**
   * The provider said nothing of what the call used and the adapter could not estimate it: `costUsd` (0)
   * is not known. The call is recorded as unpriced, not as free.
   */
  unpriced?: boolean;
}

export interface TextProvider {
  complete(req: TextRequest): Promise<TextCompletion>;
}

export interface ImageRequest extends ThrottledRequest {
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
  /** Served again from the engine's own store (a job's or a batch's result): its spend is already recorded. */
  recorded?: true;
}

export interface ImageProvider {
  generate(req: ImageRequest): Promise<GeneratedImage>;
}

export interface VideoRequest extends ThrottledRequest {
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
  /** Served again from the engine's own store (a job's or a batch's result): its spend is already recorded. */
  recorded?: true;
}

export interface VideoProvider {
  generate(req: VideoRequest): Promise<GeneratedVideo>;
}

/** A classifier judges the gate types whose verdict is reached in the step (GATE_TYPE_RULES), by their policy. */
export type ClassifierPolicy = JudgedGateType;

export interface ClassifyRequest extends ThrottledRequest {
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

export type JobKind = 'image' | 'video';

/** The job provider of each kind of media. */
export interface JobProviders {
  image: JobProvider<ImageRequest, GeneratedImage>;
  video: JobProvider<VideoRequest, GeneratedVideo>;
}

export interface ProviderSet {
  text(provider: string): TextProvider | undefined;
  image(provider: string): ImageProvider | undefined;
  video(provider: string): VideoProvider | undefined;
  classifier(provider: string): ClassifierProvider | undefined;
  /** A provider's media as jobs, when it runs them so: a step can then wait for them without a worker. */
  jobs<K extends JobKind>(kind: K, provider: string): JobProviders[K] | undefined;
  webhooks(provider: string): JobWebhooks | undefined;
  batches(provider: string): BatchProvider | undefined;
}

/** The provider's own name for a job it accepted. */
export interface SubmittedJob {
  jobId: string;
}

/**
 * A job as the engine finds it again to stop it, perhaps in another process long after it was submitted:
 * the model it runs and the provider's id (an adapter that needs more to find the job puts it in the id).
 */
export interface JobRef {
  model: ModelEntry;
  jobId: string;
  signal?: AbortSignal;
}

export type JobProgress<Result> =
  | { state: 'pending' /** When the provider suggests looking again. */; checkAfterMs?: number }
  | { state: 'succeeded'; result: Result }
  | { state: 'failed'; error: PermanentProviderError | TransientProviderError };

/**
 * A generation that runs for minutes on the provider's side (a video, a queued image): submitted once, then
 * checked until it ends, or announced by the provider's completion webhook. Submitting is the paid act, so
 * the engine submits once per attempt and keeps the job id; checking and cancelling are free to repeat.
 */
export interface JobProvider<Request, Result> {
  /** `webhookUrl`: where the provider should announce completion, when the gateway can receive it. */
  submit(req: Request & { webhookUrl?: string }): Promise<SubmittedJob>;
  /**
   * Where the job stands; a succeeded job's result is fetched in full (bytes downloaded). Asked with the
   * request as the step makes it again, so the result can be read as the request asked (audio, duration).
   */
  check(req: Request, jobId: string): Promise<JobProgress<Result>>;
  /** Stops the job where the provider allows it; a job already ended is no error. */
  cancel?(job: JobRef): Promise<void>;
}

/**
 * A provider's completion webhook, received by the gateway: verified by that provider's own signature
 * scheme, it names the job that ended (the engine then checks the job for its result). Anything not
 * verified is refused, whatever it says.
 */
export interface JobWebhooks {
  /** The job id a genuine delivery names; undefined when the signature, timestamp or body do not hold. */
  verify(delivery: { headers: Headers; body: string }): Promise<string | undefined>;
}

/**
 * One text call sent through a provider's batch interface, named by the engine's id for it (64 characters
 * of [0-9a-f], which every batch interface accepts as a custom id).
 */
export interface BatchItem {
  customId: string;
  request: TextRequest;
}

export type BatchItemOutcome = { completion: TextCompletion } | { error: PermanentProviderError | TransientProviderError };
export type BatchItemResult = { customId: string } & BatchItemOutcome;

/**
 * A batch that ended answers its items; an item it does not mention failed with `failure` when the batch
 * was refused as a whole, else transiently (expired, cancelled: a retry may send it again).
 */
export type BatchProgress = { state: 'pending' } | { state: 'ended'; results: BatchItemResult[]; failure?: PermanentProviderError };

/**
 * A provider's batch interface (OpenAI's Batch API, Anthropic's Message Batches): many text calls of one
 * model sent as one batch, answered within the provider's window (24 h) at its batch price. The engine
 * collects the calls and waits for the batch without a worker (batches.ts).
 */
export interface BatchProvider {
  /** Sends the items as one batch; the provider's id for it. Items all name `model`. */
  create(model: ModelEntry, items: BatchItem[], signal?: AbortSignal): Promise<{ batchId: string }>;
  /**
   * Where the batch stands; once it ended, every item's answer (priced at the batch rate) or error. Asked
   * with the batch's items, so each answer is read as its request asked (a structured output unwrapped).
   */
  check(model: ModelEntry, batchId: string, items: BatchItem[], signal?: AbortSignal): Promise<BatchProgress>;
  cancel?(model: ModelEntry, batchId: string): Promise<void>;
}

/** What one provider gives the engine: any kind of model call, at once or as a job. */
export interface Adapter {
  text?: TextProvider;
  image?: ImageProvider;
  video?: VideoProvider;
  classifier?: ClassifierProvider;
  imageJobs?: JobProvider<ImageRequest, GeneratedImage>;
  videoJobs?: JobProvider<VideoRequest, GeneratedVideo>;
  webhooks?: JobWebhooks;
  batches?: BatchProvider;
}

/**
 * A provider the engine can drive, beside the built-in `local` stand-ins. Its name is the registry's
 * `provider` field, its models and prices are `packages/domain/models/<name>.json`, and it is
 * registered in registry.ts.
 */
export interface ProviderDefinition<Options> {
  /** The provider's options from settings (settings.ts); undefined when it is not configured. */
  fromSettings(settings: SettingsSource): Options | undefined;
  create(options: Options): Adapter;
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
