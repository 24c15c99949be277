/**
 * Step outputs by reference: which outputs the run workflow keeps, and which a step's activity fetches
 * itself. Every byte a step returns is written into the run's history, and again into the input of each
 * later step that reads it; most outputs are only read by later steps, never by the workflow, so their
 * activity keeps them (the worker's cache, then `run_steps`) and the history names them by step id.
 *
 * Pure and imported by deterministic workflow code: no I/O, no Node built-ins.
 */
import { type ContextReads, contextEntryOf } from './run-context.js';
import type { RunPlan } from './run-plan.js';

/**
 * Whether the run workflow reads the output of step `index` itself, so its activity must return it: a
 * gated step (its output is held for review), a step that ships the artifact before later steps run, the
 * last step (it becomes the artifact when the workflow settles the run), and any step before a
 * sub-workflow step (the child's intake is mapped from the whole context).
 */
export function workflowReadsOutput(plan: RunPlan, index: number): boolean {
  const steps = plan.runtimeSteps;
  const step = steps[index];
  if (!step || index >= steps.length - 1) return true;
  if (step.gateId !== undefined || step.emitsArtifact) return true;
  return steps.slice(index + 1).some((later) => later.kind === 'subWorkflow');
}

/** The steps whose outputs the workflow holds by reference that a step reading `reads` reads, in `held`'s order. */
export function outputsReadOf(reads: ContextReads, held: readonly string[]): string[] {
  if (held.length === 0) return [];
  if (reads.whole) return [...held];
  const named = new Set<string>();
  for (const path of reads.paths) {
    const entry = contextEntryOf(path);
    if (entry?.root !== 'steps') continue;
    if (entry.key === undefined) return [...held];
    named.add(entry.key);
  }
  return held.filter((id) => named.has(id));
}
