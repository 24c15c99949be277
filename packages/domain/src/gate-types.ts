/**
 * The gate types and what the rest of the system must know about each, in one place (GATE_TYPE_RULES):
 * where its verdict is reached, what a verdict reads, how the run loop applies it, what the worker's
 * metrics report of it, how the catalog presents it, and the definition rules it brings. The run loop,
 * the judging activity, the metrics and the catalog presenter read these rules instead of naming types;
 * a new gate type is its entry here (and its name in the contract's GATE_TYPES). Pure: no I/O, safe in
 * workflow code, which imports this module (only types come from the contract, so no zod either).
 */
import type { Gate } from '@atelier/contracts/workflow-definition';

export type GateType = Gate['type'];

/** A gate as the rules need it: a definition's, or a run plan's. */
export type GateLike = Pick<Gate, 'id' | 'type' | 'name'> & Partial<Pick<Gate, 'unlocks' | 'holdFields'>>;

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

/** What the run loop knows when it applies a gate after its step: the per-run cap and the spend so far. */
export interface RunSpend {
  capUsd: number | undefined;
  spentUsd: number;
}

/** What a run's settlement tells the metrics of one gate type (observeSettlement). */
export interface SettledGateFacts {
  /** The status the settlement asked for, and the one written (a completion may be held for QA). */
  requested: string;
  written: string;
  errorCode: string | undefined;
  /** The definition has a gate of the type. */
  present: boolean;
  /** The review the run was settled into is held by a gate of the type. */
  holding: boolean;
}

/** The verdicts the `atelier_gate_verdicts_total` metric counts, by `gate_type` (the type's name). */
export type GateVerdictLabel = 'pass' | 'fail' | 'held';

export interface GateTypeRules {
  /**
   * Where the verdict is reached: by the bound `classifier` in the step's own activity (`inStep`: the
   * workflow hands the gate to executeStep, which fails the step on a rejection), or by the run loop once
   * the step is done (`afterStep`: `stops`, then `holds`).
   */
  judged: 'inStep' | 'afterStep';
  /**
   * What a classifier's verdict reads: the step's output alone, or what was asked as well (the intake and
   * the rendered prompt); a step under an `asked` gate reads the whole intake (stepReads).
   */
  verdictReads: 'output' | 'askedAndOutput' | null;
  /** afterStep: a verdict that stops the run (`failed`) before the gate counts as passed. */
  stops?: (gate: GateLike, spend: RunSpend) => GateStop | undefined;
  /** afterStep: a verdict that ends the run in `review`, once the gate passed. */
  holds?: (gate: GateLike) => ReviewHold | undefined;
  /** A definition rule: the gate must judge the last step, and the sentence that says why. */
  lastStepOnly: string | null;
  /**
   * The verdict the worker's metrics report of the type when a run settles, for gates the workflow judges
   * (workflow code cannot reach metrics); `inStep` types are counted by the judging activity instead.
   */
  settledVerdict?: (facts: SettledGateFacts) => GateVerdictLabel | undefined;
  /** How the catalog presents a workflow with a gate of the type: whether QA is included. */
  catalog: { qaIncluded: boolean };
}

const BUDGET_EXCEEDED = 'budget_gate_exceeded' as const;

export const GATE_TYPE_RULES = {
  quality: { judged: 'inStep', verdictReads: 'output', lastStepOnly: null, catalog: { qaIncluded: true } },
  safety: { judged: 'inStep', verdictReads: 'askedAndOutput', lastStepOnly: null, catalog: { qaIncluded: true } },
  budget: {
    judged: 'afterStep',
    verdictReads: null,
    lastStepOnly: null,
    catalog: { qaIncluded: false },
    // The run's spend so far against the per-run cap; over it, the run stops.
    stops: (gate, { capUsd, spentUsd }) => {
      if (capUsd === undefined || spentUsd <= capUsd) return undefined;
      const verdict = `spent ${spentUsd.toFixed(6)} USD, over the per-run cap of ${capUsd} USD`;
      return {
        errorCode: BUDGET_EXCEEDED,
        error: `${gate.name} stopped the run: ${verdict}`,
        failureDetails: { gateId: gate.id, gateType: 'budget', verdict, reasons: ['per_run_cap_exceeded'], capUsd, spentUsd },
      };
    },
    // A run stopped over its cap failed the budget (a fallback over it too, gate or not); one that got
    // through with a budget gate passed it.
    settledVerdict: ({ errorCode, written, present }) => {
      if (errorCode === BUDGET_EXCEEDED) return 'fail';
      return present && (written === 'completed' || written === 'review') ? 'pass' : undefined;
    },
  },
  approval: {
    judged: 'afterStep',
    verdictReads: null,
    lastStepOnly: 'an approval gate ends the run in review, so it must judge the last step',
    catalog: { qaIncluded: false },
    // The run ends in review, holding the gate's fields for the reviewer.
    holds: (gate) => ({ gateId: gate.id, gateName: gate.name, holdFields: (gate.holdFields as unknown[] | undefined) ?? null }),
    settledVerdict: ({ requested, holding }) => (requested === 'review' && holding ? 'held' : undefined),
  },
} as const satisfies Record<GateType, GateTypeRules>;

const rulesOf = (type: GateType): GateTypeRules => GATE_TYPE_RULES[type];

/** The types whose verdict a classifier reaches in the step's activity (quality, safety). */
export type JudgedGateType = {
  [K in keyof typeof GATE_TYPE_RULES]: (typeof GATE_TYPE_RULES)[K]['judged'] extends 'inStep' ? K : never;
}[keyof typeof GATE_TYPE_RULES];

/** The gate types, in the registry's order. */
export const gateTypes = (): GateType[] => Object.keys(GATE_TYPE_RULES) as GateType[];

/** A gate the classifier judges in its step's activity. */
export type JudgedGate = Gate & { type: JudgedGateType };
export const isJudgedGate = (gate: Pick<Gate, 'type'> | undefined): gate is JudgedGate =>
  gate !== undefined && rulesOf(gate.type).judged === 'inStep';

/** Whether a verdict on the gate reads what was asked (the intake, the prompt) as well as the output. */
export const verdictReadsAsked = (gate: Pick<Gate, 'type'> | undefined): boolean =>
  gate !== undefined && rulesOf(gate.type).verdictReads === 'askedAndOutput';

/** The run loop, after the gate's step: the verdict that stops the run, if any. */
export const gateStop = (gate: GateLike, spend: RunSpend): GateStop | undefined => rulesOf(gate.type).stops?.(gate, spend);

/** The run loop, once the gate passed: the review it holds the run in, if any. */
export const gateHold = (gate: GateLike): ReviewHold | undefined => rulesOf(gate.type).holds?.(gate);

/** The definition rule that puts a gate of the type on the last step, if it has one. */
export const lastStepOnly = (gate: Pick<Gate, 'type'>): string | null => rulesOf(gate.type).lastStepOnly;

/** The verdict a settlement reports for a gate type, if any. */
export const settledVerdict = (type: GateType, facts: SettledGateFacts): GateVerdictLabel | undefined =>
  rulesOf(type).settledVerdict?.(facts);

/** Whether the catalog presents a workflow with these gates as including QA. */
export const gatesIncludeQa = (gates: ReadonlyArray<Pick<Gate, 'type'>>): boolean => gates.some((g) => rulesOf(g.type).catalog.qaIncluded);
