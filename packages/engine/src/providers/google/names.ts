/** The model name the API knows: the registry id without its `google/` prefix. */
export const apiModel = (id: string) => id.replace(/^google\//, '');

/** Aspect ratios Imagen and Veo are asked in; which of them a model renders is the API's to say. */
const ASPECT_RATIOS: Array<[string, number]> = [
  ['1:1', 1],
  ['3:4', 3 / 4],
  ['4:3', 4 / 3],
  ['9:16', 9 / 16],
  ['16:9', 16 / 9],
];

/** The supported aspect ratio closest to width×height, compared on a log scale so 2:1 and 1:2 are equally far from 1:1. */
export function nearestAspectRatio(width: number, height: number): string {
  const target = Math.log(width / height);
  let best = ASPECT_RATIOS[0]!;
  for (const candidate of ASPECT_RATIOS)
    if (Math.abs(Math.log(candidate[1]) - target) < Math.abs(Math.log(best[1]) - target)) best = candidate;
  return best[0];
}
