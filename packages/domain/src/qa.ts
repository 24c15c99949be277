import type { QaCheck, QaRule } from './qa-check.js';
import { VIDEO_QA_RULES } from './qa-video.js';
import { VISUAL_QA_RULES } from './qa-visual.js';

export type { QaCheck, QaRule } from './qa-check.js';

/**
 * QA checks judged on an artifact's content before it is stored. A check is `{ id, label, status,
 * detail }` (qa-check.ts); the record's status is `passed` when every check passes, `failed` when one
 * fails and `pending_review` while any is still pending.
 */
export interface QaRecord {
  status: 'passed' | 'failed' | 'pending_review';
  checks: QaCheck[];
}

export function qaRecord(checks: QaCheck[]): QaRecord {
  const status = checks.some((c) => c.status === 'fail')
    ? 'failed'
    : checks.some((c) => c.status === 'pending')
      ? 'pending_review'
      : 'passed';
  return { status, checks };
}

const check = (id: string, label: string, ok: boolean, detail: string): QaCheck => ({
  id,
  label,
  status: ok ? 'pass' : 'fail',
  detail,
});

export function researchQaChecks(content: Record<string, unknown>): QaCheck[] {
  const sections = Array.isArray(content.sections) ? (content.sections as Record<string, unknown>[]) : [];
  const sources = Array.isArray(content.sources) ? content.sources : [];
  const complete = sections.filter((s) => typeof s.heading === 'string' && s.heading && typeof s.body === 'string' && s.body);
  return [
    check('has-title', 'Report has a title', typeof content.title === 'string' && content.title.length > 0, 'title present'),
    check('has-summary', 'Report has a summary', typeof content.summary === 'string' && content.summary.length > 0, 'summary present'),
    check(
      'sections-complete',
      'Every section has a heading and a body',
      sections.length > 0 && complete.length === sections.length,
      `${complete.length} of ${sections.length} sections complete`,
    ),
    check('has-sources', 'Report cites sources', sources.length > 0, `${sources.length} sources`),
  ];
}

/**
 * The QA rules of each artifact type, in one place. Media types keep their rules in their own modules
 * and are listed here.
 */
const QA_RULES: Record<string, QaRule> = {
  'research-report': researchQaChecks,
  ...VISUAL_QA_RULES,
  ...VIDEO_QA_RULES,
};

/** The QA checks that apply to an artifact type; types without rules get an empty, passing record. */
export function qaForContent(artifactType: string, content: unknown): QaRecord {
  const record = content !== null && typeof content === 'object' ? (content as Record<string, unknown>) : {};
  return qaRecord(QA_RULES[artifactType]?.(record) ?? []);
}
