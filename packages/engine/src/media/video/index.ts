import type { Tool } from '../../steps/tools.js';
import { buildFilmCut } from './film-cut.js';

export {
  buildFilmCut,
  editDecisionList,
  filmCutArgs,
  readFilmCutSpec,
  type ClipFile,
  type FilmCut,
  type FilmCutSpec,
  type Segment,
} from './film-cut.js';
export { MEDIA_FORMATS, ffmpegPath, ffprobePath, installedBuilds, mediaInput, probeInput } from './ffmpeg.js';
export { faststart, inScratch, isMp4, videoKeys } from './files.js';
export { probeMedia, referenceFormatOf, type MediaProbe } from './probe.js';

/** The video tools `tool` steps may name; joined to the registry in activities/index.ts. */
export const VIDEO_TOOLS: Record<string, Tool> = {
  buildFilmCut: {
    description: 'Joins clips (url or artifactId, start, seconds) into one silent, letterboxed MP4 at one size and rate',
    run: async (input, ctx) => ({ output: await buildFilmCut(input, ctx), costUsd: 0 }),
  },
};
