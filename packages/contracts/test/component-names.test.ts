import { readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The generator names components by the id `.openapi('Name')` gives a schema, and when two different
// schemas carry one name it keeps whichever it meets first without a word: BudgetRefusalList once listed
// 402 bodies where the refusal records are. Its id reader comes from @hono/zod-openapi's own dependency,
// which keeps the lockfile untouched.
const fromHono = createRequire(realpathSync(fileURLToPath(import.meta.resolve('@hono/zod-openapi'))));
const { getRefId } = fromHono('@asteasolutions/zod-to-openapi') as { getRefId(schema: unknown): string | undefined };

const src = new URL('../src/', import.meta.url);

describe('OpenAPI component names', () => {
  it('name one schema each across the contracts', async () => {
    const named = new Map<string, Array<{ where: string; schema: unknown }>>();
    for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
      const exported: Record<string, unknown> = await import(new URL(file, src).href);
      for (const [name, value] of Object.entries(exported)) {
        const id = value && typeof value === 'object' && '_zod' in value ? getRefId(value) : undefined;
        if (!id) continue;
        const seen = named.get(id) ?? [];
        if (!seen.some((s) => s.schema === value)) seen.push({ where: `${file}:${name}`, schema: value });
        named.set(id, seen);
      }
    }
    expect(named.size).toBeGreaterThan(100);
    const shared = [...named].filter(([, seen]) => seen.length > 1).map(([id, seen]) => `${id}: ${seen.map((s) => s.where).join(', ')}`);
    expect(shared).toEqual([]);
  });
});
