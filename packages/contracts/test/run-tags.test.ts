import { describe, expect, it } from 'vitest';
import { ListRunsQuery } from '../src/runs.js';
import { RUN_TAG_LIMITS, RunMetadata, RunTags, metadataSizeProblem, uniqueTags } from '../src/run-tags.js';

const tags = (n: number, length = 8) => Array.from({ length: n }, (_, i) => `t${String(i).padStart(length - 1, '0')}`);
const metadata = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

describe('run tags', () => {
  it('take up to 20 tags of 1–64 characters of [A-Za-z0-9_.:-]', () => {
    expect(RunTags.safeParse(tags(RUN_TAG_LIMITS.tags)).success).toBe(true);
    expect(RunTags.safeParse(tags(RUN_TAG_LIMITS.tags + 1)).success).toBe(false);
    expect(RunTags.safeParse(['a'.repeat(64)]).success).toBe(true);
    expect(RunTags.safeParse(['a'.repeat(65)]).success).toBe(false);
    expect(RunTags.safeParse(['']).success).toBe(false);
    expect(RunTags.safeParse(['Campaign:spring_2026.v-1']).success).toBe(true);
    for (const bad of ['a b', 'a/b', 'é', 'a,b', 'a=b']) expect(RunTags.safeParse([bad]).success, bad).toBe(false);
  });

  it('drop repeats and keep the order they were given in', () => {
    expect(uniqueTags(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c']);
    expect(RunTags.parse(['x', 'y', 'x'])).toEqual(['x', 'y']);
  });
});

describe('run metadata', () => {
  it('takes up to 50 string values, keys 1–64 characters, values up to 512', () => {
    expect(RunMetadata.safeParse(metadata(50)).success).toBe(true);
    expect(RunMetadata.safeParse(metadata(51)).success).toBe(false);
    expect(metadataSizeProblem(metadata(51))).toMatch(/at most 50/);
    expect(RunMetadata.safeParse({ ['k'.repeat(64)]: 'v'.repeat(512) }).success).toBe(true);
    expect(RunMetadata.safeParse({ ['k'.repeat(65)]: 'v' }).success).toBe(false);
    expect(RunMetadata.safeParse({ k: 'v'.repeat(513) }).success).toBe(false);
    expect(RunMetadata.safeParse({ '': 'v' }).success).toBe(false);
    expect(RunMetadata.safeParse({ k: 1 }).success).toBe(false);
    expect(RunMetadata.safeParse({ k: { nested: 'v' } }).success).toBe(false);
  });
});

describe('GET /v1/runs filters', () => {
  it('read tag once or repeated, and fold metadata[<key>] parameters into metadata', () => {
    expect(ListRunsQuery.parse({ tag: 'a' }).tag).toEqual(['a']);
    expect(ListRunsQuery.parse({ tag: ['a', 'b'] }).tag).toEqual(['a', 'b']);
    const q = ListRunsQuery.parse({ 'metadata[team]': 'north', 'metadata[a[b]]': 'x' });
    expect(q.metadata).toEqual({ team: 'north', 'a[b]': 'x' });
    expect(ListRunsQuery.parse({}).metadata).toBeUndefined();
  });

  it('refuse a key given twice, bad keys and values, and too many keys', () => {
    expect(ListRunsQuery.safeParse({ 'metadata[k]': ['a', 'b'] }).success).toBe(false);
    expect(ListRunsQuery.safeParse({ 'metadata[]': 'v' }).success).toBe(false);
    expect(ListRunsQuery.safeParse({ [`metadata[${'k'.repeat(65)}]`]: 'v' }).success).toBe(false);
    expect(ListRunsQuery.safeParse({ 'metadata[k]': 'v'.repeat(513) }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`metadata[k${i}]`, 'v']));
    expect(ListRunsQuery.safeParse(many).success).toBe(false);
    expect(ListRunsQuery.safeParse({ tag: tags(21) }).success).toBe(false);
  });
});
