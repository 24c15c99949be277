import type { EgressPolicy } from '@atelier/egress';
import type { Logger } from 'pino';
import type { ObjectStorage } from '@atelier/storage';

/**
 * The built-in tools that `tool` steps run and `agent` steps may call. Each takes the step input (the
 * value at its inputPath, with params merged over it when both are objects) and returns its output.
 */
/** An artifact of the run's own workspace, as a tool that takes artifact ids sees it. */
export interface FoundArtifact {
  id: string;
  artifactClass: string;
  artifactType: string;
  content: Record<string, unknown>;
}

export interface ToolContext {
  storage: ObjectStorage;
  artifactId: string;
  artifactType: string;
  signal: AbortSignal;
  /** Looks an artifact up in the run's workspace (undefined when it is not there). */
  findArtifact?: (artifactId: string) => Promise<FoundArtifact | undefined>;
  /** What fetches of caller-named URLs may reach (the worker's policy; production's deny-private when absent). */
  egress?: EgressPolicy;
  /** Where a tool logs the detail it keeps out of run-facing messages (local paths, tool diagnostics). */
  logger?: Logger;
}

export interface ToolResult {
  output: unknown;
  costUsd?: number;
}

export type Tool = {
  description: string;
  run(input: unknown, ctx: ToolContext): Promise<ToolResult> | ToolResult;
};

export class ToolInputError extends Error {}

const STOPWORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the their this to was were will with which who what when where why how than then also more most such can not no'.split(
    ' ',
  ),
);

function textOf(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object') {
    const record = input as Record<string, unknown>;
    if (typeof record.text === 'string') return record.text;
    return collectStrings(input).join('\n');
  }
  throw new ToolInputError('expects text, or an object with text');
}

function collectStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(collectStrings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(collectStrings);
  return [];
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

export const TEXT_TOOLS: Record<string, Tool> = {
  wordCount: {
    description: 'Counts the words and characters of a text',
    run: (input) => {
      const text = textOf(input);
      return { output: { words: words(text).length, characters: text.length } };
    },
  },
  extractKeywords: {
    description: 'The most frequent meaningful words of a text, most frequent first',
    run: (input) => {
      const text = textOf(input);
      const limit = typeof (input as { limit?: unknown })?.limit === 'number' ? (input as { limit: number }).limit : 8;
      const counts = new Map<string, number>();
      for (const w of words(text)) if (w.length > 2 && !STOPWORDS.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
      const keywords = [...counts.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, limit)
        .map(([w]) => w);
      return { output: { keywords } };
    },
  },
  slugify: {
    description: 'A URL-safe slug of a text',
    run: (input) => {
      const slug = textOf(input)
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 80);
      return { output: { slug } };
    },
  },
};

/** Tools by name; media tools join this registry from the media module. */
export function toolRegistry(extra: Record<string, Tool> = {}): Record<string, Tool> {
  return { ...TEXT_TOOLS, ...extra };
}
