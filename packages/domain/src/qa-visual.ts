import type { QaCheck } from './qa-check.js';

/**
 * QA of visual artifacts (illustration, product-shot, cutout), judged on what the content records — the
 * dimensions, size and alpha the media pipeline measured on the files it wrote:
 * - format: the file is WebP;
 * - dimensions: width and height are whole pixels from 16 to 4096;
 * - aspect: they match the requested aspect ratio (`aspectRatio`, "W:H") within 1%, when one was asked;
 * - transparency: when a transparent background was promised, the measured share of fully transparent
 *   pixels (`transparency.transparentFraction`) is at least 1%, and something opaque is left (at least
 *   1% of pixels fully opaque) — a cut-out that erased everything is no cut-out;
 * - file-size: the processed file is at most 5 MB (when its size is recorded).
 */
export const VISUAL_MAX_SIDE = 4096;
export const VISUAL_MIN_SIDE = 16;
export const VISUAL_MAX_BYTES = 5 * 1024 * 1024;
export const MIN_TRANSPARENT_FRACTION = 0.01;
export const MIN_OPAQUE_FRACTION = 0.01;
const ASPECT_TOLERANCE = 0.01;

const check = (id: string, label: string, ok: boolean, detail: string): QaCheck => ({ id, label, status: ok ? 'pass' : 'fail', detail });
const isSide = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= VISUAL_MIN_SIDE && (v as number) <= VISUAL_MAX_SIDE;
const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

function aspectCheck(content: Record<string, unknown>): QaCheck {
  const label = 'Size matches the requested aspect ratio';
  const requested = content.aspectRatio;
  const { width, height } = content;
  if (requested === undefined) return check('aspect', label, true, 'no aspect ratio was requested');
  const match = typeof requested === 'string' ? /^(\d+):(\d+)$/.exec(requested) : null;
  if (!match || Number(match[1]) === 0 || Number(match[2]) === 0)
    return check('aspect', label, false, `the requested aspect ratio ${JSON.stringify(requested)} is not W:H`);
  if (!isSide(width) || !isSide(height)) return check('aspect', label, false, 'width and height are not recorded');
  const wanted = Number(match[1]) / Number(match[2]);
  const actual = width / height;
  const off = Math.abs(actual - wanted) / wanted;
  return check(
    'aspect',
    label,
    off <= ASPECT_TOLERANCE,
    `${width}x${height} is ${actual.toFixed(3)}:1; ${requested} asked for ${wanted.toFixed(3)}:1`,
  );
}

function transparencyChecks(content: Record<string, unknown>): QaCheck[] {
  const label = 'Background is transparent as promised';
  if (content.transparentBackground !== true) return [check('transparency', label, true, 'no transparent background was asked for')];
  const t = (content.transparency ?? {}) as Record<string, unknown>;
  const transparent = t.transparentFraction;
  const opaque = t.opaqueFraction;
  if (typeof transparent !== 'number')
    return [check('transparency', label, false, 'a transparent background was promised but no transparency was measured')];
  const mechanism = typeof t.mechanism === 'string' ? ` (${t.mechanism})` : '';
  const checks = [
    check(
      'transparency',
      label,
      transparent >= MIN_TRANSPARENT_FRACTION,
      `${percent(transparent)} of pixels are fully transparent${mechanism}; at least ${percent(MIN_TRANSPARENT_FRACTION)} needed`,
    ),
  ];
  if (typeof opaque === 'number') {
    checks.push(
      check(
        'subject-kept',
        'The subject survives the cut-out',
        opaque >= MIN_OPAQUE_FRACTION,
        `${percent(opaque)} of pixels are fully opaque; at least ${percent(MIN_OPAQUE_FRACTION)} needed`,
      ),
    );
  }
  return checks;
}

export function visualQaChecks(content: Record<string, unknown>): QaCheck[] {
  const { width, height, bytes, mimeType } = content;
  const checks: QaCheck[] = [
    check('format', 'The file is WebP', mimeType === 'image/webp', `mimeType ${typeof mimeType === 'string' ? mimeType : 'not recorded'}`),
    check(
      'dimensions',
      `Width and height are ${VISUAL_MIN_SIDE} to ${VISUAL_MAX_SIDE} pixels`,
      isSide(width) && isSide(height),
      isSide(width) && isSide(height)
        ? `${width}x${height}`
        : `width ${JSON.stringify(width ?? null)}, height ${JSON.stringify(height ?? null)}`,
    ),
    aspectCheck(content),
    ...transparencyChecks(content),
  ];
  if (bytes !== undefined) {
    const ok = typeof bytes === 'number' && bytes > 0 && bytes <= VISUAL_MAX_BYTES;
    checks.push(
      check(
        'file-size',
        'The file is at most 5 MB',
        ok,
        typeof bytes === 'number' ? `${(bytes / 1024).toFixed(1)} KB` : 'size not a number',
      ),
    );
  }
  return checks;
}

/** The rules, by artifact type, that qa.ts registers. */
export const VISUAL_QA_RULES = {
  illustration: visualQaChecks,
  'product-shot': visualQaChecks,
  cutout: visualQaChecks,
} as const;
