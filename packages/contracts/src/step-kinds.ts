/**
 * The step kinds and their traits, as plain data. Kept apart from the zod schemas of
 * workflow-definition.ts because the run workflow reads the traits: Temporal evaluates a workflow bundle's
 * modules again for every execution, so anything imported here is paid for on every run.
 */

export const STEP_KINDS = ['llm', 'image', 'tool', 'subWorkflow', 'agent', 'code'] as const;

/**
 * What the rest of the system must know about each step kind, in one place: whether it calls a model
 * bound to a role (`needsRole`), whether the run workflow runs it itself (as it does `subWorkflow`) or hands it to the
 * `executeStep` activity, whether that activity may be a local one (`quick`), and the fields a step of the kind
 * cannot do without.
 */
export interface StepKindTraits {
  needsRole: boolean;
  runBy: 'activity' | 'workflow';
  /**
   * A step of the kind ends within seconds and waits on nothing outside the worker (code: a pure function, or
   * an expression stopped at its time limit). From run shape 7 the run workflow runs such a step in a local
   * activity, inside the workflow task that reached it, instead of scheduling a task of its own: no task
   * queue round trip, five history events fewer. A step whose gate is judged by a model is not quick.
   */
  quick: boolean;
  /** Fields a step of the kind cannot do without (all of them, or one of them), and the sentence that says so. */
  requires: { fields: readonly string[]; oneOf?: true; message: string } | null;
  /**
   * What of the run context a step of the kind reads: only what its prompt, params and inputPath name
   * (`declared`); that, or the whole context when it declares no params or inputPath (`declaredInput`);
   * or anything (`whole`: code sees the context, an agent's tools may look anywhere).
   */
  reads: 'declared' | 'declaredInput' | 'whole';
}

export const STEP_KIND_TRAITS = {
  llm: { needsRole: true, runBy: 'activity', quick: false, requires: null, reads: 'declared' },
  image: { needsRole: true, runBy: 'activity', quick: false, requires: null, reads: 'declaredInput' },
  agent: { needsRole: true, runBy: 'activity', quick: false, requires: null, reads: 'whole' },
  tool: {
    needsRole: false,
    runBy: 'activity',
    quick: false,
    requires: { fields: ['tool'], message: 'a tool step needs a tool name' },
    reads: 'declaredInput',
  },
  code: {
    needsRole: false,
    runBy: 'activity',
    quick: true,
    requires: { fields: ['function', 'expression'], oneOf: true, message: 'a code step needs a function or an expression' },
    reads: 'whole',
  },
  subWorkflow: {
    needsRole: false,
    runBy: 'workflow',
    quick: false,
    requires: {
      fields: ['templateId', 'templateVersion', 'intakeMapping'],
      message: 'a subWorkflow step needs templateId, templateVersion and intakeMapping',
    },
    reads: 'whole',
  },
} as const satisfies Record<(typeof STEP_KINDS)[number], StepKindTraits>;

/** The kinds the executeStep activity runs (each has an executor in the engine's step registry). */
export type ActivityStepKind = {
  [K in keyof typeof STEP_KIND_TRAITS]: (typeof STEP_KIND_TRAITS)[K]['runBy'] extends 'activity' ? K : never;
}[keyof typeof STEP_KIND_TRAITS];
