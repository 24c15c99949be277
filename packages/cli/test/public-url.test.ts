import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { resolvePublicUrl } from '../src/stack/public-url.js';

describe('the public URL of a gateway (ATELIER_PUBLIC_URL)', () => {
  it('is required by a production gateway (`atelier api`), and left to the listening address under `atelier dev`', () => {
    expect(() => resolvePublicUrl(loadConfig({}), false)).toThrow(/ATELIER_PUBLIC_URL is not set/);
    expect(resolvePublicUrl(loadConfig({}), true)).toBeUndefined();
  });

  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://example.com/atelier/', 'https://example.com/atelier'],
  ])('keeps %s as %s', (given, kept) => {
    for (const embedded of [true, false]) expect(resolvePublicUrl(loadConfig({ ATELIER_PUBLIC_URL: given }), embedded)).toBe(kept);
  });

  it.each(['api.example.com', 'ftp://example.com', 'https://user:pw@example.com', 'https://example.com/?x=1', 'https://example.com/#f'])(
    'refuses %s at start',
    (given) => {
      expect(() => resolvePublicUrl(loadConfig({ ATELIER_PUBLIC_URL: given }), false)).toThrow(/ATELIER_PUBLIC_URL must be/);
    },
  );
});
