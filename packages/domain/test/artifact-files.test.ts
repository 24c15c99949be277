import { describe, expect, it } from 'vitest';
import { artifactFileKey, foreignFileKeys, isArtifactFile } from '../src/artifact-files.js';

const owner = { id: 'artifact-0123456789abcdef', artifactType: 'illustration' };

describe('artifact files', () => {
  it('keys an artifact’s files under its own prefix', () => {
    expect(artifactFileKey(owner, 'raw.webp')).toBe('artifacts/illustration/artifact-0123456789abcdef/raw.webp');
    expect(() => artifactFileKey(owner, '../x.webp')).toThrow();
    expect(() => artifactFileKey(owner, 'a/b.webp')).toThrow();
  });

  it.each([
    ['artifacts/illustration/artifact-0123456789abcdef/processed.webp', true],
    ['artifacts/illustration/artifact-0123456789abcdef/raw.webp', true],
    ['artifacts/illustration/artifact-fedcba9876543210/processed.webp', false],
    ['artifacts/cutout/artifact-0123456789abcdef/processed.webp', false],
    ['artifacts/illustration/artifact-0123456789abcdef/../artifact-fedcba9876543210/raw.webp', false],
    ['artifacts/illustration/artifact-0123456789abcdef/nested/raw.webp', false],
    ['artifacts/illustration/artifact-0123456789abcdef/', false],
    ['artifacts/illustration/artifact-0123456789abcdef', false],
    ['brands/b/fonts/x.woff2', false],
    [42, false],
  ])('tells whether %s is the artifact’s own file (%s)', (key, own) => {
    expect(isArtifactFile(owner, key)).toBe(own);
  });

  it('names the file fields of content that are not the artifact’s own, whatever their type', () => {
    const own = artifactFileKey(owner, 'processed.webp');
    expect(foreignFileKeys({ storageKey: own, rawStorageKey: artifactFileKey(owner, 'raw.webp') }, owner)).toEqual([]);
    expect(foreignFileKeys({ storageKey: 'artifacts/illustration/other/processed.webp', rawStorageKey: 7 }, owner)).toEqual([
      'artifacts/illustration/other/processed.webp',
      '7',
    ]);
    expect(foreignFileKeys({ sourceArtifactId: 'x', title: 'no files' }, owner)).toEqual([]);
    expect(foreignFileKeys([{ storageKey: 'x' }], owner)).toEqual([]);
    expect(foreignFileKeys(null, owner)).toEqual([]);
  });
});
