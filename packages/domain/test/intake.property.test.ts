import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WorkflowDefinition, type IntakeField } from '@atelier/contracts/workflow-definition';
import { resolveIntake } from '../src/intake.js';
import { LOCAL_MODELS, ModelRegistry } from '../src/models.js';
import { workflowRuleErrors } from '../src/workflow-rules.js';

const name = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,11}$/);
const field: fc.Arbitrary<IntakeField> = fc.oneof(
  fc.record({ name, type: fc.constantFrom('string', 'boolean', 'integer', 'number', 'array', 'object' as const), required: fc.boolean() }),
  fc.record({
    name,
    type: fc.constant('enum' as const),
    required: fc.boolean(),
    options: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
  }),
) as fc.Arbitrary<IntakeField>;
const fields = fc.uniqueArray(field, { minLength: 1, maxLength: 6, selector: (f) => f.name });

describe('intake resolution, for any intake contract and any sent object', () => {
  it('never throws, reports only plain-language strings naming fields, and keeps unknown keys out', () => {
    fc.assert(
      fc.property(fields, fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 8 }), (contract, sent) => {
        const result = resolveIntake(contract, sent);
        const names = new Set(contract.map((f) => f.name));
        expect(result.unknownKeys.every((k) => !names.has(k))).toBe(true);
        if (result.ok) {
          expect(Object.keys(result.intake).every((k) => names.has(k))).toBe(true);
        } else {
          expect(result.errors.length).toBeGreaterThan(0);
          for (const error of result.errors) expect(contract.some((f) => error.startsWith(`${f.name} `))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('accepts exactly what fits: a value of the declared type always passes, and a required field missing always fails', () => {
    const valueFor = (f: IntakeField): fc.Arbitrary<unknown> =>
      ({
        string: fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
        boolean: fc.boolean(),
        integer: fc.integer(),
        number: fc.double({ noNaN: true, noDefaultInfinity: true }),
        array: fc.array(fc.jsonValue(), { maxLength: 3 }),
        object: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue(), { maxKeys: 3 }),
        enum: fc.constantFrom(...(f.options ?? ['x'])),
        artifactReference: fc.constant('artifact-1a2b'),
      })[f.type];
    fc.assert(
      fc.property(
        fields.chain((contract) => fc.tuple(fc.constant(contract), fc.tuple(...contract.map(valueFor)))),
        ([contract, values]) => {
          const sent = Object.fromEntries(contract.map((f, i) => [f.name, values[i]]));
          expect(resolveIntake(contract, sent).ok).toBe(true);
          const required = contract.find((f) => f.required);
          if (required) {
            const { [required.name]: _dropped, ...without } = sent;
            const result = resolveIntake(contract, without);
            expect(result.ok).toBe(false);
            if (!result.ok) expect(result.errors).toContain(`${required.name} is required`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the workflow schema and rules, for arbitrary broken definitions', () => {
  const models = new ModelRegistry(LOCAL_MODELS);
  it('reject any JSON value that is not a definition without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = WorkflowDefinition.safeParse(value);
        if (parsed.success) expect(() => workflowRuleErrors(parsed.data, { models })).not.toThrow();
        else expect(parsed.error.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('report a duplicated gate id and a dangling unlock whatever else the definition holds', () => {
    const gate = fc.record({
      id: fc.stringMatching(/^[a-z]{1,6}$/),
      name: fc.string({ minLength: 1 }),
      type: fc.constantFrom('quality', 'safety', 'approval', 'budget' as const),
    });
    fc.assert(
      fc.property(fc.uniqueArray(gate, { minLength: 1, maxLength: 5, selector: (g) => g.id }), (gates) => {
        const dup = { ...gates[0]!, inputs: [], outputs: [] };
        const def = WorkflowDefinition.parse({
          id: 'plan-anything',
          name: 'x',
          artifactClass: 'research',
          version: '2026.11.01',
          cadence: 'on-demand',
          intakeSchema: { fields: [] },
          runtimeSteps: [{ id: 's', name: 's', kind: 'code', function: 'identity' }],
          gates: [...gates.map((g) => ({ ...g, inputs: [], outputs: [], unlocks: ['nowhere-gate'] })), dup],
          providers: {},
          budgetPolicy: {},
          artifactSchema: { artifactClass: 'research', artifactType: 'research-report', files: [], metadata: [] },
          outputShape: [{ artifactClass: 'research', artifactType: 'research-report' }],
        });
        const errors = workflowRuleErrors(def, { models });
        expect(errors).toContain(`gate id "${dup.id}" is used more than once`);
        expect(errors.some((e) => e.includes('unlocks "nowhere-gate"'))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
