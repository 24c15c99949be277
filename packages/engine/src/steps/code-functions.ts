import type { RunContext } from '@atelier/domain/run-context';

/**
 * Named deterministic functions that `code` steps call. Each receives the step's input (the value at
 * its inputPath, or the whole run context) and returns the step output. Pure: no I/O, no clock.
 */
export type CodeFunction = (input: unknown, context: RunContext) => unknown;

class CodeStepError extends Error {}

const asRecord = (v: unknown, what: string): Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new CodeStepError(`${what} must be an object`);
  return v as Record<string, unknown>;
};

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** Shapes a drafted report into the contract's research content. */
function researchReport(input: unknown): unknown {
  const draft = asRecord(input, 'the report draft');
  const sections = Array.isArray(draft.sections) ? draft.sections : [];
  return {
    type: 'research-report',
    title: text(draft.title),
    summary: text(draft.summary),
    sections: sections.map((s, i) => {
      const section = asRecord(s, `section ${i + 1}`);
      return { heading: text(section.heading), body: text(section.body) };
    }),
    sources: (Array.isArray(draft.sources) ? draft.sources : []).map(text).filter((s) => s.length > 0),
  };
}

export const CODE_FUNCTIONS: Record<string, CodeFunction> = {
  researchReport,
  /** Returns its input unchanged: useful to expose an intake value or an earlier output as a step. */
  identity: (input) => input,
};

export { CodeStepError };
