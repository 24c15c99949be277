/**
 * Background removal on raw pixels (RGBA, 8 bits a channel), no model involved:
 *
 * 1. The background is what can be reached from the image's border through "smooth" pixels: pixels
 *    within `tolerance` (Euclidean RGB distance) of each of their four neighbours, and not on an edge
 *    (their neighbours on either side differ by at most `edgeTolerance`). The edge test stops the fill
 *    from creeping along an anti-aliased outline, where each step is small but the path walks from the
 *    backdrop into the subject. Every border pixel is a seed, so smooth gradients and backdrop shapes
 *    that touch the frame are taken along. Pixels already transparent are background; the opaque rim
 *    around them is never entered, so an image cut out before keeps its subject.
 * 2. The rest is opened (eroded then dilated by `opening` pixels): thin lines left on backdrop edges
 *    go, the subject keeps its shape. What is left is split into connected pieces; the largest is the
 *    subject, and pieces at least `peerRatio` of its size are kept with it (a picture of two things
 *    keeps both). Smaller floating pieces (backdrop debris) go.
 * 3. The edge is feathered: the keep/drop mask is box-blurred over `feather` pixels and becomes alpha
 *    (never more opaque than the pixel was).
 *
 * Limits: the subject must not touch the frame, and a subject whose edge fades smoothly into a
 * backdrop of its own colour leaks, as with any colour-distance fill; the tolerances are the knobs.
 */
export interface CutoutOptions {
  /** Largest colour step between neighbouring background pixels (0-441); default 18. */
  tolerance?: number;
  /** Largest colour difference across a background pixel (its two neighbours on a line); default 24. */
  edgeTolerance?: number;
  /** Radius of the opening that removes thin leftovers; default 2. */
  opening?: number;
  /** Feather radius in pixels; default 1. */
  feather?: number;
  /** Pieces at least this fraction of the largest one are kept as subjects too; default 0.5. */
  peerRatio?: number;
}

export interface AlphaStats {
  /** Pixels with alpha 0. */
  transparentFraction: number;
  /** Pixels with alpha 255. */
  opaqueFraction: number;
}

export interface CutoutResult extends AlphaStats {
  /** The median colour of the border's visible pixels, the backdrop the cut removed (#rrggbb). */
  backgroundColor?: string;
}

const TRANSPARENT = 16;

/** Cuts the background out of `rgba` in place (its alpha channel changes). */
export function cutOutBackground(pixels: Uint8Array, width: number, height: number, opts: CutoutOptions = {}): CutoutResult {
  const n = width * height;
  // A plain Uint8Array view (not a Buffer) keeps the loops below monomorphic.
  const rgba = new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length);
  if (rgba.length !== n * 4) throw new Error(`expected ${n * 4} bytes of RGBA, got ${rgba.length}`);
  const tolerance = opts.tolerance ?? 18;
  const limit = tolerance * tolerance;
  const backgroundColor = borderColour(rgba, width, height);
  const edgeTolerance = opts.edgeTolerance ?? 24;
  const background = floodFromBorder(rgba, width, height, limit, edgeTolerance * edgeTolerance);
  open(background, width, height, Math.max(0, Math.round(opts.opening ?? 2)));
  keepSubjects(background, width, height, opts.peerRatio ?? 0.5);
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = background[i] ? 0 : 255;
  const soft = feather(mask, width, height, Math.max(0, Math.round(opts.feather ?? 1)));
  for (let i = 0; i < n; i++) {
    const a = rgba[i * 4 + 3]!;
    if (soft[i]! < a) rgba[i * 4 + 3] = soft[i]!;
  }
  return { ...alphaStats(rgba, 4), ...(backgroundColor ? { backgroundColor } : {}) };
}

/** Fractions of fully transparent and fully opaque pixels; an image without alpha is all opaque. */
export function alphaStats(pixels: Uint8Array, channels: number): AlphaStats {
  const n = Math.floor(pixels.length / channels);
  if (n === 0) return { transparentFraction: 0, opaqueFraction: 0 };
  if (channels !== 2 && channels !== 4) return { transparentFraction: 0, opaqueFraction: 1 };
  let transparent = 0;
  let opaque = 0;
  for (let i = channels - 1; i < pixels.length; i += channels) {
    const a = pixels[i]!;
    if (a === 0) transparent++;
    else if (a === 255) opaque++;
  }
  return { transparentFraction: round4(transparent / n), opaqueFraction: round4(opaque / n) };
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Squared RGB distance between the pixels at byte offsets a and b. */
function distance2(px: Uint8Array, a: number, b: number): number {
  const dr = px[a]! - px[b]!;
  const dg = px[a + 1]! - px[b + 1]!;
  const db = px[a + 2]! - px[b + 2]!;
  return dr * dr + dg * dg + db * db;
}

/**
 * 1 where the fill may enter a pixel: already transparent; or opaque, not beside a transparent pixel
 * (the rim of existing transparency), no neighbour further than the step limit, and not on an edge
 * (neighbours on either side within the edge limit).
 */
function passableMap(px: Uint8Array, width: number, height: number, limit: number, edgeLimit: number): Uint8Array {
  const n = width * height;
  const rowBytes = width * 4;
  // Steps to the right and downwards, computed once: each pixel's four steps are read from these.
  const right = new Uint32Array(n);
  const down = new Uint32Array(n);
  for (let q = 0; q < n; q++) {
    const o = q * 4;
    if ((q + 1) % width !== 0) right[q] = distance2(px, o, o + 4);
    if (q < n - width) down[q] = distance2(px, o, o + rowBytes);
  }
  const pass = new Uint8Array(n);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const q = y * width + x;
      const o = q * 4;
      if (px[o + 3]! < TRANSPARENT) {
        pass[q] = 1;
        continue;
      }
      const l = x > 0 ? o - 4 : o;
      const r = x < width - 1 ? o + 4 : o;
      const u = y > 0 ? o - rowBytes : o;
      const d = y < height - 1 ? o + rowBytes : o;
      if (px[l + 3]! < TRANSPARENT || px[r + 3]! < TRANSPARENT || px[u + 3]! < TRANSPARENT || px[d + 3]! < TRANSPARENT) continue;
      if (right[q]! > limit || down[q]! > limit || (x > 0 && right[q - 1]! > limit) || (y > 0 && down[q - width]! > limit)) continue;
      if (distance2(px, l, r) > edgeLimit || distance2(px, u, d) > edgeLimit) continue;
      pass[q] = 1;
    }
  }
  return pass;
}

/** Marks (1) every pixel connected to the image border through passable pixels; border pixels are seeds. */
function floodFromBorder(px: Uint8Array, width: number, height: number, limit: number, edgeLimit: number): Uint8Array {
  const n = width * height;
  const pass = passableMap(px, width, height, limit, edgeLimit);
  const background = new Uint8Array(n);
  const queue = new Int32Array(n);
  let tail = 0;
  for (let i = 0; i < n; i++) {
    const x = i % width;
    if (i < width || i >= n - width || x === 0 || x === width - 1) {
      background[i] = 1;
      queue[tail++] = i;
    }
  }
  for (let head = 0; head < tail; head++) {
    const p = queue[head]!;
    const x = p % width;
    if (x > 0 && !background[p - 1] && pass[p - 1]) {
      background[p - 1] = 1;
      queue[tail++] = p - 1;
    }
    if (x < width - 1 && !background[p + 1] && pass[p + 1]) {
      background[p + 1] = 1;
      queue[tail++] = p + 1;
    }
    if (p >= width && !background[p - width] && pass[p - width]) {
      background[p - width] = 1;
      queue[tail++] = p - width;
    }
    if (p < n - width && !background[p + width] && pass[p + width]) {
      background[p + width] = 1;
      queue[tail++] = p + width;
    }
  }
  return background;
}

/** Morphological opening of the foreground (background = 0): erode then dilate with a square of radius r. */
function open(background: Uint8Array, width: number, height: number, r: number): void {
  if (r === 0) return;
  const fg = new Uint8Array(background.length);
  for (let i = 0; i < fg.length; i++) fg[i] = background[i] ? 0 : 1;
  const eroded = squareFilter(fg, width, height, r, 'min');
  const opened = squareFilter(eroded, width, height, r, 'max');
  for (let i = 0; i < fg.length; i++) if (fg[i] && !opened[i]) background[i] = 1;
}

/** Min or max over a (2r+1)² square of a 0/1 mask, separably; outside the image counts as 0. */
function squareFilter(mask: Uint8Array, width: number, height: number, r: number, mode: 'min' | 'max'): Uint8Array {
  return windowPass(mask, width, height, r, mode === 'min' ? 'all' : 'any');
}

/**
 * What a cell of a window pass becomes: 1 when all the window's cells are set (outside the image counts as
 * unset), 1 when any is, or the mean of those inside the image.
 */
type WindowValue = 'all' | 'any' | 'mean';

/** A cell of a window pass: `sum` over the window along one axis, `inside` the window's cells in the image. */
function windowCell(kind: WindowValue, sum: number, inside: number, full: number): number {
  if (kind === 'mean') return Math.round(sum / inside);
  return (kind === 'all' ? sum === full : sum > 0) ? 1 : 0;
}

/**
 * A separable pass of a (2r+1)² window over a one-channel mask by running sums: along rows, then along
 * columns row by row (cache friendly). A switch rather than a callback: this runs for every pixel twice.
 */
function windowPass(mask: Uint8Array, width: number, height: number, r: number, kind: WindowValue): Uint8Array {
  const full = 2 * r + 1;
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    const base = y * width;
    let sum = 0;
    for (let k = 0; k <= r && k < width; k++) sum += mask[base + k]!;
    for (let x = 0; x < width; x++) {
      rows[base + x] = windowCell(kind, sum, Math.min(width - 1, x + r) - Math.max(0, x - r) + 1, full);
      if (x - r >= 0) sum -= mask[base + x - r]!;
      if (x + r + 1 < width) sum += mask[base + x + r + 1]!;
    }
  }
  const out = new Uint8Array(mask.length);
  const sums = new Int32Array(width);
  for (let k = 0; k <= r && k < height; k++) for (let x = 0; x < width; x++) sums[x]! += rows[k * width + x]!;
  for (let y = 0; y < height; y++) {
    const base = y * width;
    const inside = Math.min(height - 1, y + r) - Math.max(0, y - r) + 1;
    const leaving = y - r >= 0 ? (y - r) * width : -1;
    const entering = y + r + 1 < height ? (y + r + 1) * width : -1;
    for (let x = 0; x < width; x++) {
      out[base + x] = windowCell(kind, sums[x]!, inside, full);
      if (leaving >= 0) sums[x]! -= rows[leaving + x]!;
      if (entering >= 0) sums[x]! += rows[entering + x]!;
    }
  }
  return out;
}

/** Drops foreground pieces smaller than `peerRatio` of the largest one (they become background). */
function keepSubjects(background: Uint8Array, width: number, height: number, peerRatio: number): void {
  const n = width * height;
  const label = new Int32Array(n);
  const sizes: number[] = [0];
  const queue = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (background[start] || label[start]) continue;
    const id = sizes.length;
    let tail = 0;
    label[start] = id;
    queue[tail++] = start;
    for (let head = 0; head < tail; head++) {
      const p = queue[head]!;
      const x = p % width;
      if (x > 0 && !background[p - 1] && !label[p - 1]) {
        label[p - 1] = id;
        queue[tail++] = p - 1;
      }
      if (x < width - 1 && !background[p + 1] && !label[p + 1]) {
        label[p + 1] = id;
        queue[tail++] = p + 1;
      }
      if (p >= width && !background[p - width] && !label[p - width]) {
        label[p - width] = id;
        queue[tail++] = p - width;
      }
      if (p < n - width && !background[p + width] && !label[p + width]) {
        label[p + width] = id;
        queue[tail++] = p + width;
      }
    }
    sizes.push(tail);
  }
  let largest = 0;
  for (const size of sizes) if (size > largest) largest = size;
  if (largest === 0) return;
  const keep = sizes.map((size) => size >= largest * peerRatio);
  for (let i = 0; i < n; i++) if (label[i] && !keep[label[i]!]) background[i] = 1;
}

/** A separable box blur of radius `r` over a one-channel mask (running sums; edges average what exists). */
function feather(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  if (r === 0) return mask;
  return windowPass(mask, width, height, r, 'mean');
}

/** The median colour of the border's visible pixels; undefined when the border is all transparent. */
function borderColour(rgba: Uint8Array, width: number, height: number): string | undefined {
  const channels: number[][] = [[], [], []];
  const add = (i: number) => {
    if (rgba[i * 4 + 3]! < TRANSPARENT) return;
    for (let c = 0; c < 3; c++) channels[c]!.push(rgba[i * 4 + c]!);
  };
  const step = Math.max(1, Math.floor((width + height) / 512));
  for (let x = 0; x < width; x += step) {
    add(x);
    add((height - 1) * width + x);
  }
  for (let y = 0; y < height; y += step) {
    add(y * width);
    add(y * width + width - 1);
  }
  if (channels[0]!.length === 0) return undefined;
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return `#${channels.map((c) => median(c).toString(16).padStart(2, '0')).join('')}`;
}
