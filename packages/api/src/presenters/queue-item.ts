import type { QueueRow } from '@atelier/db';
import { holdFieldsOf } from '@atelier/domain';

export function presentQueueItem(r: QueueRow) {
  return {
    runId: r.run_id,
    templateId: r.template_id,
    templateName: r.template_name,
    workspaceId: r.workspace_id,
    projectId: r.project_id,
    gateId: r.review_gate_id,
    gateName: r.review_gate_name ?? r.review_gate_id,
    status: 'review' as const,
    artifactId: r.artifact_id,
    artifactTitle: r.artifact_title,
    artifactStatus: r.artifact_status,
    intakeSummary: intakeSummary(r.intake, r.intake_fields),
    qa:
      (r.qa as {
        status: string;
        checks: Array<{ id: string; label: string; status: 'pass' | 'fail' | 'pending'; detail: string }>;
      } | null) ?? null,
    holdFields: holdFieldsOf(r.hold_fields),
    queuedAt: r.queued_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    enteredReviewAt: new Date(r.entered_review_at).toISOString(),
  };
}

const SUMMARY_VALUES = 2;
const SUMMARY_VALUE_CHARS = 80;

/**
 * What tells one queued run from another of the same workflow: its first two filled-in text or number
 * intake values, in the order the workflow declares its fields ("a ceramic teapot · web"). Null when the
 * intake has none (only references or objects).
 */
export function intakeSummary(intake: unknown, fields: unknown): string | null {
  if (!intake || typeof intake !== 'object') return null;
  const values = intake as Record<string, unknown>;
  const declared = Array.isArray(fields) ? fields.map((f) => (f as { name?: unknown })?.name).filter((n) => typeof n === 'string') : [];
  const names = [...new Set([...declared, ...Object.keys(values).sort()])] as string[];
  const shown: string[] = [];
  for (const name of names) {
    const v = values[name];
    if (!(typeof v === 'string' ? v.trim() : typeof v === 'number')) continue;
    const text = String(v).trim().replace(/\s+/g, ' ');
    shown.push(text.length > SUMMARY_VALUE_CHARS ? `${text.slice(0, SUMMARY_VALUE_CHARS - 1)}…` : text);
    if (shown.length === SUMMARY_VALUES) break;
  }
  return shown.length ? shown.join(' · ') : null;
}
