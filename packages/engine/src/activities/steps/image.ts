import sharp from 'sharp';
import type { ExecuteStepInput } from '../../run-types.js';
import { cpuBound } from '../../media/cpu-slots.js';
import { visualKeys } from '../../media/visual/remove-background.js';
import { generateVideoStep } from './video.js';
import type { ModelEntry } from '@atelier/domain';
import { withFallbacks } from './fallbacks.js';
import { type ExecutorDeps, type StepExecution, invalid, mediaPrompt, stepInput } from './shared.js';

const MAX_SIDE = 4096;

function dimension(value: unknown, fallback: number, name: string, stepId: string): number {
  if (value === undefined || value === null) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 16 || n > MAX_SIDE)
    throw invalid(`step ${stepId}: ${name} must be a whole number of pixels from 16 to ${MAX_SIDE}`);
  return n;
}

/**
 * An `image` step: the bound image model draws from the rendered prompt; the result is encoded as WebP
 * and stored as the artifact's raw file. Size is read back from the encoded file.
 */
export async function generateImageStep(input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const { result, fallbacks, skippedCostUsd } = await withFallbacks(input, input.step.role, deps, signal, (model, scoped) =>
    model.kind === 'video' ? generateVideoStep(input, model, scoped, signal) : generateImage(input, model, scoped, signal),
  );
  return { ...result, costUsd: result.costUsd + skippedCostUsd, ...(fallbacks.length > 0 ? { fallbacks } : {}) };
}

async function generateImage(input: ExecuteStepInput, model: ModelEntry, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const { step, context } = input;
  const provider = deps.providers.image(model.provider);
  if (!provider) throw invalid(`step ${step.id}: provider ${model.provider} makes no images`);
  const params = (stepInput(step, context) ?? {}) as Record<string, unknown>;
  const prompt = mediaPrompt(step, context, params);
  const width = dimension(params.width, 1024, 'width', step.id);
  const height = dimension(params.height, 1024, 'height', step.id);
  const transparentBackground = params.transparentBackground === true;

  const image = await provider.generate({
    model,
    prompt,
    width,
    height,
    seed: `${step.id}:${input.runId}`,
    transparentBackground,
    signal,
    batch: input.executionMode === 'batch' && model.batch,
  });
  // The encode is CPU work: it waits for a media slot, the model call before it held none.
  const webp = await cpuBound(() => sharp(image.bytes).webp({ quality: 92, alphaQuality: 100 }).toBuffer(), signal);
  const meta = await sharp(webp).metadata();
  const storageKey = visualKeys(input.artifact.artifactType, input.artifact.id).raw;
  await deps.storage.put(storageKey, webp, 'image/webp');
  return {
    output: {
      type: 'image',
      storageKey,
      mimeType: 'image/webp',
      width: meta.width,
      height: meta.height,
      bytes: webp.length,
      hasAlpha: meta.hasAlpha === true,
      model: model.id,
      prompt,
      transparentBackground,
      nativeTransparency: image.nativeTransparency,
    },
    provider: model.provider,
    model: model.id,
    costUsd: image.costUsd,
  };
}
