import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visualQaChecks } from '@atelier/domain/qa-visual';
import { alphaStats, cutOutBackground, removeBackground } from '@atelier/engine/media/visual/index';
import { ToolInputError } from '@atelier/engine/steps/tools';
import { LocalStorage } from '@atelier/storage';

/** The cut-out on pictures made here, the tool's refusals, and the visual QA rules, without a run. */
const W = 200;
const H = 160;

/** A backdrop gradient with shapes touching the frame, a subject in the middle, optionally a speck. */
async function picture(
  svgExtra = '',
  subject = '<circle cx="100" cy="80" r="40" fill="#d62828" stroke="#111" stroke-width="4"/>',
): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#264653"/><stop offset="1" stop-color="#2a9d8f"/></linearGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#g)"/>
    <circle cx="0" cy="0" r="30" fill="#e9c46a" fill-opacity="0.6"/>
    <rect x="170" y="120" width="60" height="60" fill="#f4a261" fill-opacity="0.5" transform="rotate(20 200 150)"/>
    ${svgExtra}${subject}</svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 92 }).toBuffer();
}

async function rgba(bytes: Buffer) {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info, alpha: (x: number, y: number) => data[(y * info.width + x) * 4 + 3]! };
}

describe('cutOutBackground', () => {
  it('removes a gradient backdrop and the shapes touching the frame, keeps the subject whole', async () => {
    const { data, alpha } = await rgba(await picture());
    const result = cutOutBackground(data, W, H);
    for (const [x, y] of [
      [0, 0],
      [W - 1, 0],
      [0, H - 1],
      [W - 1, H - 1],
      [5, 5],
      [190, 150],
    ])
      expect(alpha(x!, y!), `${x},${y}`).toBe(0);
    for (const [x, y] of [
      [100, 80],
      [75, 80],
      [125, 80],
      [100, 50],
    ])
      expect(alpha(x!, y!), `${x},${y}`).toBe(255);
    // The disc and its stroke are about π·42² pixels of W·H; the rest went.
    const disc = (Math.PI * 42 * 42) / (W * H);
    expect(1 - result.transparentFraction).toBeGreaterThan(disc * 0.9);
    expect(1 - result.transparentFraction).toBeLessThan(disc * 1.15);
    expect(result.backgroundColor).toMatch(/^#[0-9a-f]{6}$/);
    expect(alphaStats(data, 4)).toEqual({ transparentFraction: result.transparentFraction, opaqueFraction: result.opaqueFraction });
  });

  it('drops floating debris, keeps a second subject of comparable size', async () => {
    const debris = '<rect x="96" y="130" width="8" height="8" fill="#ffffff"/>';
    const two =
      '<circle cx="60" cy="80" r="30" fill="#d62828" stroke="#111" stroke-width="4"/><circle cx="145" cy="80" r="28" fill="#e9c46a" stroke="#111" stroke-width="4"/>';
    const { data, alpha } = await rgba(await picture(debris, two));
    cutOutBackground(data, W, H);
    expect(alpha(100, 134)).toBe(0);
    expect(alpha(60, 80)).toBe(255);
    expect(alpha(145, 80)).toBe(255);
  });

  it('leaves an image cut out before as it was: the subject is kept', async () => {
    const first = await rgba(await picture());
    const once = cutOutBackground(first.data, W, H);
    const again = Buffer.from(first.data);
    const twice = cutOutBackground(again, W, H);
    expect(twice.opaqueFraction).toBeGreaterThan(once.opaqueFraction * 0.9);
    expect(again[(80 * W + 100) * 4 + 3]).toBe(255);
  });

  it('takes everything from a picture that is all backdrop, and reports it', async () => {
    const flat = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
      .webp()
      .toBuffer();
    const { data } = await rgba(flat);
    const result = cutOutBackground(data, 64, 64);
    expect(result).toMatchObject({ transparentFraction: 1, opaqueFraction: 0 });
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(result.backgroundColor!.slice(i, i + 2), 16));
    expect(Math.abs(r! - 0x33) + Math.abs(g! - 0x66) + Math.abs(b! - 0x99)).toBeLessThan(8);
  });

  it('refuses pixels that are not RGBA of the stated size', () => {
    expect(() => cutOutBackground(new Uint8Array(10), 4, 4)).toThrow(/expected 64 bytes/);
  });
});

describe('removeBackground tool', () => {
  let scratch: string;
  let storage: LocalStorage;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'atelier-visual-'));
    storage = new LocalStorage(scratch);
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));
  const source = { id: 'artifact-aaaaaaaaaaaaaaaa', artifactClass: 'visual', artifactType: 'product-shot', content: {} };
  const ctx = () => ({
    storage,
    artifactId: 'artifact-00112233aabbccdd',
    artifactType: 'cutout',
    findArtifact: async (id: string) => (id === source.id ? source : undefined),
  });
  const own = 'artifacts/cutout/artifact-00112233aabbccdd/raw.webp';

  it('refuses input it cannot work on, as a step input error', async () => {
    await storage.put('artifacts/x/not-an-image.webp', Buffer.from('hello'));
    await storage.put('artifacts/cutout/artifact-00112233aabbccdd/processed.webp', Buffer.from('hello'));
    await storage.put('artifacts/product-shot/artifact-bbbbbbbbbbbbbbbb/raw.webp', await picture());
    for (const [input, message] of [
      [null, /expects an image/],
      [{ url: 'https://x' }, /storageKey/],
      [{ storageKey: '../etc/passwd' }, /invalid storageKey/],
      [{ storageKey: own }, /found no file at artifacts\/cutout\/artifact-00112233aabbccdd\/raw.webp/],
      // A key is not access: not this artifact's, and not a file of the artifact the input names.
      [{ storageKey: 'artifacts/cutout/artifact-00112233aabbccdd/processed.webp' }, /could not read/],
      [{ storageKey: 'artifacts/x/not-an-image.webp' }, /may not read/],
      [{ storageKey: 'artifacts/product-shot/artifact-bbbbbbbbbbbbbbbb/raw.webp' }, /may not read/],
      [{ storageKey: 'artifacts/product-shot/artifact-bbbbbbbbbbbbbbbb/raw.webp', artifactId: source.id }, /may not read/],
      [
        { storageKey: 'artifacts/product-shot/artifact-bbbbbbbbbbbbbbbb/raw.webp', artifactId: 'artifact-bbbbbbbbbbbbbbbb' },
        /may not read/,
      ],
      [{ storageKey: 'artifacts/x/not-an-image.webp', tolerance: 0 }, /tolerance/],
      [{ storageKey: 'artifacts/x/not-an-image.webp', aspectRatio: 'wide' }, /aspectRatio/],
    ] as const) {
      const err = await removeBackground(input, ctx()).catch((e) => e);
      expect(err, JSON.stringify(input)).toBeInstanceOf(ToolInputError);
      expect(err.message).toMatch(message);
    }
  });

  it('copies a source from elsewhere as the raw file and records where it came from', async () => {
    const source = await picture();
    await storage.put('artifacts/product-shot/artifact-aaaaaaaaaaaaaaaa/raw.webp', source);
    const out = await removeBackground(
      {
        storageKey: 'artifacts/product-shot/artifact-aaaaaaaaaaaaaaaa/raw.webp',
        artifactId: 'artifact-aaaaaaaaaaaaaaaa',
        transparentBackground: true,
        model: 'local/image-1',
      },
      ctx(),
    );
    expect(out).toMatchObject({
      storageKey: 'artifacts/cutout/artifact-00112233aabbccdd/processed.webp',
      rawStorageKey: 'artifacts/cutout/artifact-00112233aabbccdd/raw.webp',
      sourceArtifactId: 'artifact-aaaaaaaaaaaaaaaa',
      width: W,
      height: H,
      transparency: { mechanism: 'post-process' },
    });
    expect((await storage.get(out.rawStorageKey)).equals(source)).toBe(true);
    expect(out.bytes).toBe((await storage.get(out.storageKey)).length);
  });
});

describe('visual QA rules', () => {
  const good = {
    type: 'image',
    mimeType: 'image/webp',
    width: 1024,
    height: 1024,
    bytes: 40_000,
    transparentBackground: true,
    transparency: { mechanism: 'post-process', transparentFraction: 0.7, opaqueFraction: 0.28 },
  };
  const failing = (content: Record<string, unknown>) =>
    visualQaChecks(content)
      .filter((c) => c.status === 'fail')
      .map((c) => c.id);

  it('passes a sound image and names each problem otherwise', () => {
    expect(failing(good)).toEqual([]);
    expect(failing({ ...good, mimeType: 'image/png' })).toEqual(['format']);
    expect(failing({ ...good, width: 8 })).toEqual(['dimensions']);
    expect(failing({ ...good, height: 5000 })).toEqual(['dimensions']);
    expect(failing({ ...good, aspectRatio: '16:9' })).toEqual(['aspect']);
    expect(failing({ ...good, width: 1920, height: 1080, aspectRatio: '16:9' })).toEqual([]);
    expect(failing({ ...good, aspectRatio: 'square' })).toEqual(['aspect']);
    expect(failing({ ...good, bytes: 6 * 1024 * 1024 })).toEqual(['file-size']);
    expect(failing({ ...good, transparency: { mechanism: 'none', transparentFraction: 0, opaqueFraction: 1 } })).toEqual(['transparency']);
    expect(failing({ ...good, transparency: { mechanism: 'post-process', transparentFraction: 1, opaqueFraction: 0 } })).toEqual([
      'subject-kept',
    ]);
    expect(failing({ ...good, transparency: undefined })).toEqual(['transparency']);
    expect(failing({ ...good, transparentBackground: false, transparency: undefined })).toEqual([]);
  });

  it('leaves out the file-size check when the size is not recorded (a product shot shaped by `visual`)', () => {
    const { bytes: _bytes, ...shot } = good;
    expect(visualQaChecks({ ...shot, transparentBackground: false }).map((c) => c.id)).toEqual([
      'format',
      'dimensions',
      'aspect',
      'transparency',
    ]);
  });
});
