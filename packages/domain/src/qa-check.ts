/**
 * The shape of a QA check, shared by the QA registry (qa.ts) and the media types' rule modules
 * (qa-visual.ts, qa-video.ts), which qa.ts registers. A check is `{ id, label, status, detail }`.
 */
export interface QaCheck {
  id: string;
  label: string;
  status: 'pass' | 'fail' | 'pending';
  detail: string;
}

/** The QA rule of an artifact type: the checks judged on its content. */
export type QaRule = (content: Record<string, unknown>) => QaCheck[];
