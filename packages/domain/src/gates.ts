/**
 * Every rule about gates, in one pure module that workflow code, activities, the definition checks and
 * settlement all import: which gates are judged by a classifier in the step's activity, the unlock order,
 * the budget verdict, the approval hold and the definition rules. Pure: no I/O, safe in workflow code.
 */
import type { Gate, Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';

type GateLike = Pick<Gate, 'id' | 'type' | 'name'> & Partial<Pick<Gate, 'unlocks' | 'holdFields'>>;

/** What an approval gate (or the QA hold) leaves on a run in review: the gate and the fields it holds. */
export interface ReviewHold {
  gateId: string;
  gateName: string;
  holdFields: unknown[] | null;
}

/** How a gate stops a run: the run's error code, its message and the details a client shows. */
export interface GateStop {
  errorCode: 'gate_locked' | 'gate_rejected' | 'budget_gate_exceeded';
  error: string;
  failureDetails?: Record<string, unknown>;
}

/** Quality and safety gates are judged by the bound classifier on the output of the step they sit on. */
export type JudgedGate = Gate & { type: 'quality' | 'safety' };
export const isJudgedGate = (gate: Pick<Gate, 'type'> | undefined): gate is JudgedGate =>
  gate?.type === 'quality' || gate?.type === 'safety';

/** The gate a step names, if any. */
export function gateOf<G extends GateLike>(gates: readonly G[], step: Pick<Step, 'gateId'>): G | undefined {
  return step.gateId ? gates.find((g) => g.id === step.gateId) : undefined;
}

/** Gates that must pass before `gateId` is judged (every gate that lists it in `unlocks`) and have not. */
export function lockingGates(gates: readonly GateLike[], gateId: string, passed: ReadonlySet<string>): string[] {
  return gates.filter((g) => g.unlocks?.includes(gateId) && !passed.has(g.id)).map((g) => g.id);
}

/** A gate judged before the gates that unlock it passed. */
export function lockedStop(gate: GateLike, locking: readonly string[]): GateStop {
  return { errorCode: 'gate_locked', error: `gate ${gate.id} is judged before ${locking.join(', ')} unlocked it` };
}

/** A classifier's rejection of the step's output. */
export function rejectionStop(gate: GateLike, verdict: string, reasons: readonly string[]): GateStop {
  return {
    errorCode: 'gate_rejected',
    error: `${gate.name} rejected the work: ${verdict}`,
    failureDetails: { gateId: gate.id, gateType: gate.type, verdict, reasons: [...reasons] },
  };
}

/** A budget gate compares the run's spend so far with the per-run cap; over it, the run stops. */
export function budgetStop(gate: GateLike, capUsd: number | undefined, spentUsd: number): GateStop | undefined {
  if (gate.type !== 'budget' || capUsd === undefined || spentUsd <= capUsd) return undefined;
  const verdict = `spent ${spentUsd.toFixed(6)} USD, over the per-run cap of ${capUsd} USD`;
  return {
    errorCode: 'budget_gate_exceeded',
    error: `${gate.name} stopped the run: ${verdict}`,
    failureDetails: { gateId: gate.id, gateType: 'budget', verdict, reasons: ['per_run_cap_exceeded'], capUsd, spentUsd },
  };
}

/** An approval gate ends the run in review, holding its fields for the reviewer. */
export function approvalHold(gate: GateLike): ReviewHold | undefined {
  if (gate.type !== 'approval') return undefined;
  return { gateId: gate.id, gateName: gate.name, holdFields: (gate.holdFields as unknown[] | undefined) ?? null };
}

/** The index of the step an approval gate judges (always the last step of a valid definition), or -1. */
export function approvalStepIndex(def: { runtimeSteps: ReadonlyArray<Pick<Step, 'gateId'>>; gates: readonly GateLike[] }): number {
  return def.runtimeSteps.findIndex((s) => gateOf(def.gates, s)?.type === 'approval');
}

/** The gate rules a definition must pass before publishing, as plain-language sentences. */
export function gateRuleErrors(def: Pick<WorkflowDefinition, 'gates' | 'runtimeSteps' | 'providers'>): string[] {
  const errors: string[] = [];
  const gateIds = new Set<string>();
  for (const gate of def.gates) {
    if (gateIds.has(gate.id)) errors.push(`gate id "${gate.id}" is used more than once`);
    gateIds.add(gate.id);
  }
  for (const gate of def.gates) {
    for (const target of gate.unlocks ?? []) {
      if (!gateIds.has(target)) errors.push(`gate "${gate.id}" unlocks "${target}", which is not a gate of this workflow`);
    }
  }
  if (def.runtimeSteps.some((s) => isJudgedGate(gateOf(def.gates, s))) && !def.providers.classifier) {
    errors.push('quality and safety gates need a classifier: bind the role "classifier" in providers');
  }
  const last = def.runtimeSteps.length - 1;
  def.runtimeSteps.forEach((step, index) => {
    const label = `step ${index + 1} ("${step.id}")`;
    if (step.gateId && !gateIds.has(step.gateId)) errors.push(`${label}: gate "${step.gateId}" is not a gate of this workflow`);
    const gate = gateOf(def.gates, step);
    // A judged gate is judged on the output of a step the engine executes; a supplied step (the caller's
    // artifact) or a subWorkflow step (the child's) is never judged, so its gate would pass unjudged.
    if (isJudgedGate(gate) && (step.suppliedBy || step.kind === 'subWorkflow')) {
      const why = step.suppliedBy ? `its output is supplied by the intake field "${step.suppliedBy}"` : 'it runs a sub-workflow';
      errors.push(
        `${label}: the ${gate.type} gate "${gate.id}" would never be judged because ${why}; put the gate on a step this workflow executes`,
      );
    }
    if (gate?.type === 'approval' && index !== last) {
      errors.push(`${label}: an approval gate ends the run in review, so it must judge the last step`);
    }
  });
  const position = new Map(def.runtimeSteps.map((s, i) => [s.gateId, i] as const));
  for (const gate of def.gates) {
    for (const target of gate.unlocks ?? []) {
      const [from, to] = [position.get(gate.id), position.get(target)];
      if (from !== undefined && to !== undefined && to <= from) {
        errors.push(`gate "${target}" is unlocked by "${gate.id}", so the step it judges must come after the step "${gate.id}" judges`);
      }
    }
  }
  return errors;
}
