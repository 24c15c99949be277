import type { Tool } from '../../steps/tools.js';
import { removeBackground } from './remove-background.js';

export { alphaStats, cutOutBackground, type CutoutOptions, type CutoutResult } from './cutout.js';
export {
  MAX_SIDE,
  WEBP_OPTIONS,
  removeBackground,
  visualKeys,
  type ProcessedImage,
  type Transparency,
  type TransparencyMechanism,
} from './remove-background.js';

/** The visual tools `tool` steps may name; joined to the registry in activities/index.ts. */
export const VISUAL_TOOLS: Record<string, Tool> = {
  removeBackground: {
    description:
      "Writes an image's processed.webp: the backdrop cut out (or drawn transparent by the model) when transparentBackground is true, else a re-encoded copy",
    run: async (input, ctx) => ({ output: await removeBackground(input, ctx), costUsd: 0 }),
  },
};
