import { parse } from 'csv-parse/sync';
import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './hashing.js';

/**
 * Variation resolvers for orders (decisions §7): `list` (params.items, intake objects), `matrix`
 * (params.axes, the cartesian product of { field: [values] }) and `csv` (params.csv, a header row then
 * one intake per row). Each variation is merged over the order's intakeBase.
 */
export type VariationSpec =
  | { resolver: 'list'; params: { items: Record<string, unknown>[] } }
  | { resolver: 'matrix'; params: { axes: Record<string, unknown[]> } }
  | { resolver: 'csv'; params: { csv: string } };

export class VariationError extends Error {}

/** An order may not fan out beyond this many variations. */
export const MAX_VARIATIONS = 10_000;

function matrix(axes: Record<string, unknown[]>): Record<string, unknown>[] {
  const fields = Object.keys(axes);
  if (fields.length === 0) throw new VariationError('matrix axes must name at least one field');
  let product: Record<string, unknown>[] = [{}];
  for (const field of fields) {
    const values = axes[field]!;
    if (values.length === 0) throw new VariationError(`matrix axis ${field} has no values`);
    if (product.length * values.length > MAX_VARIATIONS)
      throw new VariationError(`the matrix makes more than ${MAX_VARIATIONS} variations`);
    product = product.flatMap((partial) => values.map((value) => ({ ...partial, [field]: value })));
  }
  return product;
}

/** CSV cells are text; a cell for a numeric or boolean intake field is converted by `coerce`. */
function csvRows(text: string, coerce: (field: string, value: string) => unknown): Record<string, unknown>[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, relax_column_count: false });
  } catch (err) {
    throw new VariationError(`the CSV does not parse: ${(err as Error).message}`);
  }
  if (rows.length === 0) throw new VariationError('the CSV has a header but no rows');
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([, v]) => v !== '')
        .map(([k, v]) => [k, coerce(k, v)]),
    ),
  );
}

export function resolveVariations(
  spec: VariationSpec,
  coerce: (field: string, value: string) => unknown = (_f, v) => v,
): Record<string, unknown>[] {
  let variations: Record<string, unknown>[];
  switch (spec.resolver) {
    case 'list':
      variations = spec.params.items;
      break;
    case 'matrix':
      variations = matrix(spec.params.axes);
      break;
    case 'csv':
      variations = csvRows(spec.params.csv, coerce);
      break;
  }
  if (variations.length === 0) throw new VariationError('the variation spec resolves to no variations');
  if (variations.length > MAX_VARIATIONS)
    throw new VariationError(`the order has ${variations.length} variations; at most ${MAX_VARIATIONS} are allowed`);
  return variations;
}

/** SHA-256 of the canonical JSON of (workflow id, version, merged intake), hex: equal keys mean duplicate children. */
export function orderDedupeKey(workflowId: string, version: string, intake: Record<string, unknown>): string {
  return sha256Hex(canonicalJson([workflowId, version, intake]));
}
