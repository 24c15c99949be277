import type { RunEvent } from '@atelier/client';

/**
 * A USD amount as every command prints it: cents and up to four decimals from a cent up ($5.00,
 * $0.05, $1.2345), and two significant digits below a cent, so a local model's $0.000042 does not
 * print as $0.0000. '-' when there is no amount.
 */
export function money(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  if (abs === 0) return '$0.00';
  if (abs >= 0.01) return `${sign}$${abs.toFixed(4).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
  if (abs < 1e-12) return `${sign}~$0.00`;
  const decimals = Math.min(12, 1 - Math.floor(Math.log10(abs)));
  return `${sign}$${abs.toFixed(decimals).replace(/0+$/, '')}`;
}

/** Left-aligned columns separated by two spaces; an optional header row. */
export function table(rows: string[][], headers?: string[]): string {
  const all = headers ? [headers, ...rows] : rows;
  if (all.length === 0) return '';
  const widths: number[] = [];
  for (const row of all) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return all.map(line).join('\n');
}

const time = (at: unknown) => (typeof at === 'string' ? at.slice(11, 19) : new Date().toISOString().slice(11, 19));

/** One human line for an event of a run's stream (undefined for events not worth a line). */
export function describeRunEvent(e: RunEvent): string | undefined {
  if (e.event === 'snapshot') {
    // What happened before the watch began: the run, then each step that already has an outcome.
    const run = e.data as {
      id: string;
      templateId: string;
      status: string;
      runSteps: Array<{ id: string; name: string; kind: string; status: string; costActualUsd: number; error?: string | null }>;
    };
    const done = run.runSteps.filter((s) => s.status !== 'pending');
    const lines = [`${time(undefined)} run ${run.id} (${run.templateId}) ${run.status}, ${done.length}/${run.runSteps.length} steps done`];
    run.runSteps.forEach((s, i) => {
      if (s.status !== 'pending')
        lines.push(
          describeRunEvent({
            event: `step.${s.status}`,
            data: {
              stepIndex: i,
              stepId: s.id,
              name: s.name,
              kind: s.kind,
              costActualUsd: s.costActualUsd,
              ...(s.error ? { error: s.error } : {}),
            },
          }) ?? '',
        );
    });
    return lines.join('\n');
  }
  const d = e.data as Record<string, unknown>;
  const step = `step ${typeof d.stepIndex === 'number' ? d.stepIndex + 1 : '?'} ${d.stepId ?? ''}${d.name && d.name !== d.stepId ? ` "${d.name}"` : ''}${d.kind ? ` (${d.kind})` : ''}`;
  const cost = typeof d.costActualUsd === 'number' ? ` ${money(d.costActualUsd)}` : '';
  switch (e.event) {
    case 'step.started':
      return `${time(d.at)} ${step} started`;
    case 'step.completed':
      return `${time(d.at)} ${step} completed${cost}`;
    case 'step.failed':
      return `${time(d.at)} ${step} FAILED${cost}${d.error ? `: ${d.error}` : ''}`;
    case 'step.skipped':
      return `${time(d.at)} ${step} skipped`;
    case 'artifact.created':
      return `${time(d.at)} artifact ${d.artifactId} created`;
    case 'step.output.delta':
      // A piece of a step's text as it is written: the watch prints transitions (its --json prints these too).
      return undefined;
    case 'run.status':
      return `${time(d.at)} run ${d.status}${d.errorCode ? ` (${d.errorCode}${d.error ? `: ${d.error}` : ''})` : ''}`;
    default:
      return `${time(d.at)} ${e.event} ${JSON.stringify(d)}`;
  }
}

/** A field an approval must supply (a typed hold's holdFields entry). */
export interface HoldField {
  name: string;
  type: string;
  options?: unknown[];
}

const asHoldFields = (fields: unknown): HoldField[] =>
  Array.isArray(fields) ? fields.filter((f): f is HoldField => typeof (f as HoldField | null)?.name === 'string') : [];

/** What a hold asks for, in words: `usage (one of web, print, social, internal)`. */
export function holdNeeds(fields: unknown): string {
  const held = asHoldFields(fields);
  if (held.length === 0) return 'a decision (no fields to fill in)';
  return held.map((f) => `${f.name} (${f.type === 'enum' && f.options?.length ? `one of ${f.options.join(', ')}` : f.type})`).join('; ');
}

const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The commands that decide a run in review: approve (with a --set per held field), reject, request changes. */
export function decideCommands(runId: string, holdFields: unknown): string[] {
  const sets = asHoldFields(holdFields).map((f) => {
    const value =
      f.type === 'enum' && f.options?.length ? `<${f.options.join('|')}>` : f.type === 'boolean' ? '<true|false>' : `<${f.type}>`;
    return ` --set ${shellQuote(`${f.name}=${value}`)}`;
  });
  return [
    `atelier queue approve ${runId}${sets.join('')}`,
    `atelier queue reject ${runId} --note '<why>'`,
    `atelier queue request-changes ${runId} --note '<what to change>'`,
  ];
}

/** A run's intake in one line: `topic=tides, depth=brief`, cut at `max` characters. */
export function intakeSummary(intake: Record<string, unknown> | null | undefined, max = 100): string {
  const text = Object.entries(intake ?? {})
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  if (text === '') return '-';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The intake fields of a workflow definition (intakeSchema.fields) as table rows. */
export function intakeFieldRows(definition: Record<string, unknown>): string[][] {
  const schema = definition.intakeSchema as { fields?: unknown } | undefined;
  const fields = Array.isArray(schema?.fields) ? (schema.fields as Array<Record<string, unknown>>) : [];
  return fields.map((f) => {
    const options = Array.isArray(f.options) ? `one of ${f.options.map((o) => String(o)).join(', ')}` : '';
    const kind =
      f.type === 'artifactReference' && (f.artifactClass || f.artifactType)
        ? `artifactReference (${[f.artifactClass, f.artifactType].filter(Boolean).join('/')})`
        : String(f.type ?? '-');
    const notes = [options, f.default !== undefined ? `default ${JSON.stringify(f.default)}` : '', String(f.description ?? '')]
      .filter((n) => n !== '')
      .join('; ');
    return [String(f.name ?? '?'), kind, f.required ? 'yes' : 'no', notes];
  });
}

/**
 * A research report's content (type research-report: title, summary, sections of heading and body,
 * sources) as Markdown; undefined for any other content.
 */
export function researchReportMarkdown(content: Record<string, unknown>): string | undefined {
  if (content.type !== 'research-report') return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const sections = Array.isArray(content.sections) ? (content.sections as Array<Record<string, unknown>>) : [];
  const sources = Array.isArray(content.sources) ? content.sources.map(text).filter((s) => s !== '') : [];
  const parts = [`# ${text(content.title) || 'Research report'}`];
  if (text(content.summary)) parts.push(text(content.summary));
  for (const s of sections) parts.push(`## ${text(s?.heading) || 'Untitled section'}`, ...(text(s?.body) ? [text(s.body)] : []));
  if (sources.length) parts.push('## Sources', sources.map((s) => `- ${s}`).join('\n'));
  return `${parts.join('\n\n')}\n`;
}
