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

/** An image step's output as visual artifact content. */
function visual(input: unknown): unknown {
  const image = asRecord(input, 'the image');
  if (typeof image.storageKey !== 'string') throw new CodeStepError('the image has no storageKey');
  const { type: _type, bytes: _bytes, ...rest } = image;
  return { type: 'image', ...rest };
}

const VISUAL_FIELDS = [
  'storageKey',
  'rawStorageKey',
  'mimeType',
  'width',
  'height',
  'bytes',
  'model',
  'prompt',
  'transparentBackground',
  'transparency',
  'aspectRatio',
  'sourceArtifactId',
];

/** A removeBackground output as visual content: the processed file is the artifact's file, raw kept beside it. */
function processedVisual(input: unknown): unknown {
  const image = asRecord(input, 'the processed image');
  if (typeof image.storageKey !== 'string' || typeof image.rawStorageKey !== 'string')
    throw new CodeStepError('the processed image has no storageKey and rawStorageKey');
  return { type: 'image', ...Object.fromEntries(VISUAL_FIELDS.filter((f) => image[f] !== undefined).map((f) => [f, image[f]])) };
}

/** A brand profile draft as a proposal: a human confirms it into the brand's working copy. */
function brandProfileProposal(input: unknown, context: RunContext): unknown {
  const profile = asRecord(input, 'the brand profile');
  return {
    type: 'brand-profile',
    status: 'proposal',
    title: `Brand profile proposal: ${text(profile.name)}`,
    profile,
    source: { url: context.intake.url ?? null, notes: context.intake.notes ?? null },
  };
}

/** An article draft with the report it was composed from. */
function article(input: unknown, context: RunContext): unknown {
  const draft = asRecord(input, 'the article draft');
  const report = Object.values(context.steps).find(
    (o) => o && typeof o === 'object' && Array.isArray((o as Record<string, unknown>).sources),
  ) as Record<string, unknown> | undefined;
  return {
    type: 'article',
    title: text(draft.title),
    standfirst: text(draft.standfirst),
    body: (Array.isArray(draft.body) ? draft.body : []).map(text).filter(Boolean),
    keyTakeaways: (Array.isArray(draft.keyTakeaways) ? draft.keyTakeaways : []).map(text).filter(Boolean),
    sources: (Array.isArray(report?.sources) ? report.sources : []).map(text),
    sourceReportTitle: report ? text(report.title) : null,
  };
}

export const CODE_FUNCTIONS: Record<string, CodeFunction> = {
  researchReport,
  visual,
  processedVisual,
  brandProfileProposal,
  article,
  /** Returns its input unchanged: useful to expose an intake value or an earlier output as a step. */
  identity: (input) => input,
};

export { CodeStepError };
