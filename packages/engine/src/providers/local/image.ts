import sharp from 'sharp';
import { pick, seededRandom } from '../seeded-random.js';

/**
 * The local image model draws a real, deterministic picture with sharp: a backdrop, a composition of
 * shapes and a central subject whose palette, layout and silhouette all follow from the prompt and the
 * seed, so different prompts give visibly different images and the same prompt gives the same bytes.
 * With `alpha`, the backdrop is left transparent (the model's native transparency).
 */
const PALETTES = [
  ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'],
  ['#0b132b', '#1c2541', '#3a506b', '#5bc0be', '#f2f2f2'],
  ['#5f0f40', '#9a031e', '#fb8b24', '#e36414', '#0f4c5c'],
  ['#003049', '#d62828', '#f77f00', '#fcbf49', '#eae2b7'],
  ['#283618', '#606c38', '#fefae0', '#dda15e', '#bc6c25'],
  ['#22223b', '#4a4e69', '#9a8c98', '#c9ada7', '#f2e9e4'],
];

function shapes(random: () => number, palette: string[], w: number, h: number): string {
  const parts: string[] = [];
  const count = 6 + Math.floor(random() * 8);
  for (let i = 0; i < count; i++) {
    const fill = pick(random, palette);
    const opacity = (0.35 + random() * 0.5).toFixed(2);
    const x = Math.round(random() * w);
    const y = Math.round(random() * h);
    const size = Math.round((0.05 + random() * 0.18) * Math.min(w, h));
    const kind = Math.floor(random() * 3);
    if (kind === 0) parts.push(`<circle cx="${x}" cy="${y}" r="${size}" fill="${fill}" fill-opacity="${opacity}"/>`);
    else if (kind === 1)
      parts.push(
        `<rect x="${x - size}" y="${y - size / 2}" width="${size * 2}" height="${size}" rx="${Math.round(size / 5)}" fill="${fill}" fill-opacity="${opacity}" transform="rotate(${Math.round(random() * 90)} ${x} ${y})"/>`,
      );
    else
      parts.push(
        `<polygon points="${x},${y - size} ${x + size},${y + size} ${x - size},${y + size}" fill="${fill}" fill-opacity="${opacity}"/>`,
      );
  }
  return parts.join('');
}

function subject(random: () => number, palette: string[], w: number, h: number): string {
  const cx = w / 2;
  const cy = h / 2;
  const r = Math.min(w, h) * (0.22 + random() * 0.08);
  const points = 7 + Math.floor(random() * 6);
  const path = Array.from({ length: points }, (_, i) => {
    const angle = (i / points) * Math.PI * 2;
    const radius = r * (0.75 + random() * 0.35);
    return `${(cx + Math.cos(angle) * radius).toFixed(1)},${(cy + Math.sin(angle) * radius).toFixed(1)}`;
  }).join(' ');
  const [a, b] = [pick(random, palette), pick(random, palette)];
  return `<defs><radialGradient id="s" cx="40%" cy="35%" r="70%"><stop offset="0%" stop-color="${a}"/><stop offset="100%" stop-color="${b}"/></radialGradient></defs>
    <polygon points="${path}" fill="url(#s)" stroke="#111" stroke-width="${Math.max(2, Math.round(r / 30))}"/>
    <circle cx="${cx - r * 0.25}" cy="${cy - r * 0.2}" r="${r * 0.09}" fill="#fff"/><circle cx="${cx + r * 0.25}" cy="${cy - r * 0.2}" r="${r * 0.09}" fill="#fff"/>`;
}

export interface LocalImageOptions {
  prompt: string;
  seed: string;
  width: number;
  height: number;
  alpha: boolean;
}

/** Renders the composition and returns it as PNG (lossless; the media pipeline encodes WebP). */
export async function renderLocalImage(o: LocalImageOptions): Promise<Buffer> {
  const random = seededRandom(`${o.seed}\u0000${o.prompt}`);
  const palette = pick(random, PALETTES);
  const [w, h] = [o.width, o.height];
  const backdrop = o.alpha
    ? ''
    : `<defs><linearGradient id="bg" x1="0" y1="0" x2="${random().toFixed(2)}" y2="1"><stop offset="0%" stop-color="${palette[0]}"/><stop offset="100%" stop-color="${palette[1]}"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#bg)"/>${shapes(random, palette, w, h)}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${backdrop}${subject(random, palette.slice(2), w, h)}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
