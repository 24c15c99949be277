/**
 * The rules every gate shares, in one pure module that workflow code, activities, the definition checks and
 * settlement all import: the unlock order, the rejection, the hold a definition's record implies and the
 * definition rules. What differs by gate type is its entry in GATE_TYPE_RULES (gate-types.ts), read here
 * and re-exported. Pure: no I/O, safe in workflow code.
 */
import type { Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { type GateLike, type GateStop, gateHold, gateTypes, isJudgedGate, lastStepOnly } from './gate-types.js';

export * from './gate-types.js';

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

/** The index of the step whose gate holds the run for review (the last step of a valid definition), or -1. */
export function holdingStepIndex(def: { runtimeSteps: ReadonlyArray<Pick<Step, 'gateId'>>; gates: readonly GateLike[] }): number {
  return def.runtimeSteps.findIndex((s) => {
    const gate = gateOf(def.gates, s);
    return gate !== undefined && gateHold(gate) !== undefined;
  });
}

/** The sentence naming the gate types a classifier judges: `quality and safety`. */
function judgedTypesSentence(): string {
  const judged = gateTypes().filter((type) => isJudgedGate({ type }));
  return judged.length > 1 ? `${judged.slice(0, -1).join(', ')} and ${judged.at(-1)}` : judged.join('');
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
    errors.push(`${judgedTypesSentence()} gates need a classifier: bind the role "classifier" in providers`);
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
    const lastOnly = gate ? lastStepOnly(gate) : null;
    if (lastOnly && index !== last) errors.push(`${label}: ${lastOnly}`);
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
