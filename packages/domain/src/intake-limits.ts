import { LIMITS } from '@atelier/contracts/common';

/**
 * The size bounds of an intake sent to the API (LIMITS.intakeString, LIMITS.intakeBytes). An intake is
 * copied into the run row, the workflow's history and every prompt that names it, so a 2 MB one costs
 * many times its size; real intakes are phrases, options and ids. Checked at the edge only: an intake a
 * workflow builds for a sub-workflow from its own step outputs is not a caller's input.
 */

export interface IntakeSize {
  /** UTF-8 bytes of the intake as JSON. */
  bytes: number;
  /** The longest string in it, a key or a value at any depth, and where it is (`brief.notes[2]`). */
  longest: { at: string; length: number } | null;
}

/** UTF-8 bytes of `text`, counted without Buffer (domain code also runs in workflow sandboxes). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair: one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

interface Node {
  value: unknown;
  key: string | number | null;
  parent: Node | null;
}

/** Where a node is (`brief.notes[2]`), built only for a string longer than any before it. */
function pathOf(node: Node | null): string {
  let path = '';
  for (let at = node; at && at.key !== null; at = at.parent) {
    path = typeof at.key === 'number' ? `[${at.key}]${path}` : `${at.key.slice(0, 60)}${path && !path.startsWith('[') ? '.' : ''}${path}`;
  }
  return path;
}

/** The size of an intake (or any JSON value standing for one) as it would be stored. */
export function measureIntake(intake: unknown): IntakeSize {
  let longest: IntakeSize['longest'] = null;
  const stack: Node[] = [{ value: intake, key: null, parent: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      if (value.length > (longest?.length ?? 0)) longest = { at: pathOf(node) || '(the intake)', length: value.length };
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) stack.push({ value: v, key: i, parent: node });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key.length > (longest?.length ?? 0)) longest = { at: `a key of ${pathOf(node) || 'the intake'}`, length: key.length };
        stack.push({ value: v, key, parent: node });
      }
    }
  }
  return { bytes: utf8Bytes(JSON.stringify(intake) ?? ''), longest };
}

const n = (value: number) => value.toLocaleString('en-US');

/**
 * Sentences naming what is past the bounds, for an intake made of `parts` merged together (an order
 * child's intakeBase and its variation; one part for a run). The parts' bytes are added: a merged
 * intake is never larger than their sum (a key in both counts twice), and measuring intakeBase once
 * keeps a 10,000-child order from serializing it 10,000 times.
 */
export function intakeSizeProblems(...parts: IntakeSize[]): string[] {
  const problems: string[] = [];
  for (const { longest } of parts) {
    if (longest && longest.length > LIMITS.intakeString) {
      problems.push(`${longest.at} is ${n(longest.length)} characters long; at most ${n(LIMITS.intakeString)} are allowed`);
    }
  }
  const bytes = parts.reduce((sum, p) => sum + p.bytes, 0);
  if (bytes > LIMITS.intakeBytes) {
    problems.push(`the intake is ${n(bytes)} bytes as JSON; at most ${n(LIMITS.intakeBytes)} are allowed`);
  }
  return problems;
}
