import { describe, expect, it } from 'vitest';
import { money } from '../src/api/format.js';

describe('money: one formatter for every cost the CLI prints', () => {
  it.each([
    [0, '$0.00'],
    [5, '$5.00'],
    [0.05, '$0.05'],
    [0.1, '$0.10'],
    [1.2345, '$1.2345'],
    [1.23456, '$1.2346'],
    [0.000042, '$0.000042'],
    [0.0000421, '$0.000042'],
    [0.0012, '$0.0012'],
    [-0.5, '-$0.50'],
    [null, '-'],
    [undefined, '-'],
  ])('%s prints %s', (n, printed) => {
    expect(money(n)).toBe(printed);
  });
});
