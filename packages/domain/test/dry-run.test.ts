import { describe, expect, it } from 'vitest';
import type { IntakeField } from '@atelier/contracts/workflow-definition';
import { NO_RUNTIME_STEPS_WARNING, checkDefinition, dryRunDraft, estimateDraft, pricingErrors } from '../src/dry-run.js';
import { resolveIntake } from '../src/intake.js';
import { LOCAL_MODELS, ModelRegistry } from '../src/models.js';

const models = new ModelRegistry(LOCAL_MODELS);
type Json = any;

const VALID = {
  id: 'plan-garden-notes',
  name: 'Garden notes',
  artifactClass: 'knowledge',
  version: '2026.11.01',
  cadence: 'on-demand',
  intakeSchema: {
    fields: [
      { name: 'topic', type: 'string', required: true },
      { name: 'depth', type: 'enum', options: ['brief', 'standard', 'deep'], default: 'standard' },
      { name: 'count', type: 'integer' },
      { name: 'ratio', type: 'number' },
      { name: 'draft', type: 'boolean' },
      { name: 'tags', type: 'array' },
      { name: 'meta', type: 'object' },
      { name: 'source', type: 'artifactReference', artifactClass: 'research', artifactType: 'research-report' },
    ],
  },
  runtimeSteps: [
    { id: 'step-1', name: 'Write', kind: 'llm', role: 'textGenerator', prompt: 'Notes on {{intake.topic}}', gateId: 'g1' },
    { id: 'step-2', name: 'Shape', kind: 'code', function: 'identity', inputPath: 'step-1', gateId: 'g2' },
  ],
  gates: [
    { id: 'g1', name: 'Quality', type: 'quality', inputs: [], outputs: [], unlocks: ['g2'] },
    { id: 'g2', name: 'Approval', type: 'approval', inputs: [], outputs: [] },
  ],
  providers: { textGenerator: 'local/text-1', classifier: 'local/classifier-1' },
  budgetPolicy: { perRunCapUsd: 0.5 },
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};
const VALID_INTAKE = { topic: 'tomatoes', depth: 'brief', count: 3, ratio: 0.5, draft: true, tags: [], meta: {}, source: 'artifact-1a2b' };

/** A small seeded generator (mulberry32): every run of the suite sees the same mutants. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
type Rng = ReturnType<typeof rng>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function parentOf(root: Json, path: string): { parent: Json; key: string } | null {
  const keys = path.split('.');
  let node = root;
  for (const k of keys.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return null;
    node = node[k];
  }
  return node !== null && typeof node === 'object' ? { parent: node, key: keys[keys.length - 1]! } : null;
}

const REQUIRED_PATHS = [
  'id',
  'name',
  'artifactClass',
  'version',
  'cadence',
  'intakeSchema',
  'runtimeSteps',
  'gates',
  'providers',
  'budgetPolicy',
  'artifactSchema',
  'outputShape',
  'intakeSchema.fields',
  'intakeSchema.fields.0.name',
  'intakeSchema.fields.2.type',
  'runtimeSteps.0.id',
  'runtimeSteps.1.name',
  'runtimeSteps.0.kind',
  'gates.0.id',
  'gates.1.name',
  'gates.0.type',
  'gates.1.inputs',
  'gates.0.outputs',
  'artifactSchema.artifactType',
  'artifactSchema.files',
  'artifactSchema.metadata',
  'outputShape.0.artifactType',
];
/** Paths and values of the wrong type for them. */
const WRONG_TYPES: Array<[string, unknown[]]> = [
  ['id', [42, true, [], {}]],
  ['name', [7, false, ['x']]],
  ['version', [20261101, null, {}]],
  ['cadence', [1, []]],
  ['intakeSchema', ['fields', 3, []]],
  ['intakeSchema.fields', [{}, 'topic', 9]],
  ['intakeSchema.fields.0', ['topic', 5, null]],
  ['intakeSchema.fields.0.required', ['yes', 1]],
  ['intakeSchema.fields.1.options', ['brief', 3]],
  ['runtimeSteps', [{}, 'step-1', 0]],
  ['runtimeSteps.1', ['code', 2, null]],
  ['runtimeSteps.0.prompt', [5, ['a']]],
  ['runtimeSteps.0.jsonSchema', ['object', [], 3]],
  ['runtimeSteps.1.emitsArtifact', ['yes', 0]],
  ['runtimeSteps.0.maxTurns', [0, 1.5, 'four']],
  ['gates', [{}, 'g1', 1]],
  ['gates.0.unlocks', ['g2', 2, {}]],
  ['providers', ['local/text-1', [], 3]],
  ['providers.textGenerator', [1, null, []]],
  ['budgetPolicy', [5, 'cheap', []]],
  ['budgetPolicy.perRunCapUsd', [-1, '0.5', true]],
  ['artifactSchema', ['article', []]],
  ['outputShape', [{}, 'article']],
  ['estimatedDurationSeconds', [-3, 1.5, '30']],
  ['schemaVersion', ['workflow-schema-v2', 1]],
];
const ENUM_PATHS = [
  'artifactClass',
  'runtimeSteps.0.kind',
  'runtimeSteps.1.kind',
  'gates.0.type',
  'intakeSchema.fields.0.type',
  'outputShape.0.artifactClass',
  'artifactSchema.artifactClass',
  'status',
];

const freshGate = (id: string) => ({ id, name: 'Fresh', type: 'quality', inputs: [], outputs: [] });
const asObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One mutation: breaks the definition whatever was done to it before, and says what error it expects. */
type Mutation = (def: Json, r: Rng) => RegExp;
const MUTATIONS: Record<string, Mutation> = {
  dropRequired(def, r) {
    const path = r.pick(REQUIRED_PATHS);
    const at = parentOf(def, path);
    if (at) delete at.parent[at.key];
    return new RegExp(`^${escapeRegex(path)}: is required`);
  },
  wrongType(def, r) {
    const [path, values] = r.pick(WRONG_TYPES);
    const at = parentOf(def, path);
    if (at) at.parent[at.key] = clone(r.pick(values));
    return new RegExp(`^${escapeRegex(path)}(\\.|:)`);
  },
  unknownEnum(def, r) {
    const path = r.pick(ENUM_PATHS);
    const at = parentOf(def, path);
    if (at) at.parent[at.key] = `bogus-${r.int(1000)}`;
    return new RegExp(`^${escapeRegex(path)}: must be one of`);
  },
  duplicateGateId(def) {
    if (Array.isArray(def.gates) && def.gates.length > 0) def.gates.push(clone(def.gates[0]));
    else def.gates = [freshGate('dup'), freshGate('dup')];
    return /is used more than once/;
  },
  danglingUnlock(def, r) {
    const target = `missing-${r.int(1000)}`;
    if (!Array.isArray(def.gates) || def.gates.length === 0 || !asObject(def.gates[0])) def.gates = [freshGate('g9')];
    const gate = def.gates[0];
    gate.unlocks = [...(Array.isArray(gate.unlocks) ? gate.unlocks : []), target];
    return new RegExp(`unlocks "${target}", which is not a gate`);
  },
  badVersion(def, r) {
    def.version = r.pick(['2026.02.30', 'v1', '2026-11-01', '26.11.01', 'latest']);
    return /must be date-tagged/;
  },
  badId(def, r) {
    def.id = r.pick(['create-thing', 'make-video', 'Plan_Notes', 'assemble-pack', 'plan', 'plan notes']);
    return /^id "/;
  },
  unknownModel(def, r) {
    if (!asObject(def.providers)) def.providers = {};
    def.providers[r.pick(['textGenerator', 'classifier', 'extra'])] = r.pick(['nobody/none', 'local/text-9', '']);
    return /^provider binding|^providers\./;
  },
  wrongModelKind(def) {
    if (!asObject(def.providers)) def.providers = {};
    def.providers.textGenerator = 'local/image-1';
    return /role textGenerator needs a text model/;
  },
  enumWithoutOptions(def, r) {
    const name = `choice${r.int(100)}`;
    if (asObject(def.intakeSchema) && Array.isArray(def.intakeSchema.fields)) def.intakeSchema.fields.push({ name, type: 'enum' });
    else def.intakeSchema = { fields: [{ name, type: 'enum' }] };
    return new RegExp(`"${name}" is an enum without options`);
  },
  unregisteredOutput(def) {
    def.outputShape = [{ artifactClass: 'visual', artifactType: 'hologram' }];
    return /hologram is not a registered artifact type/;
  },
  danglingStepGate(def, r) {
    const gate = `nowhere-${r.int(1000)}`;
    if (!Array.isArray(def.runtimeSteps) || !asObject(def.runtimeSteps[0]))
      def.runtimeSteps = [{ id: 's', name: 'S', kind: 'code', function: 'identity' }];
    def.runtimeSteps[0].gateId = gate;
    return new RegExp(`gate "${gate}" is not a gate of this workflow`);
  },
  codeWithoutFunction(def) {
    def.runtimeSteps = [{ id: 'only', name: 'Only', kind: 'code' }];
    return /a code step needs a function or an expression/;
  },
  noSteps(def) {
    def.runtimeSteps = [];
    return /runtimeSteps must name at least one step/;
  },
  notAnObject(_def, r) {
    return r.pick([null, 'definition', 42, [], true]) as never;
  },
};
const MUTATION_NAMES = Object.keys(MUTATIONS).filter((n) => n !== 'notAnObject');

function isPlainLanguage(message: unknown): boolean {
  return (
    typeof message === 'string' &&
    message.trim().length > 3 &&
    message.length < 300 &&
    !/^\s*[[{]/.test(message) &&
    !message.includes('[object Object]') &&
    !message.includes('undefined')
  );
}

describe('checkDefinition', () => {
  it('accepts the valid definition and returns it parsed', () => {
    const check = checkDefinition(clone(VALID), { models });
    expect(check.errors).toEqual([]);
    expect(check.definition?.id).toBe('plan-garden-notes');
  });

  it('reports shape and rule problems together, each as a sentence naming where it is', () => {
    const def = clone(VALID) as Json;
    def.runtimeSteps[0].kind = 'spell';
    def.gates.push(clone(def.gates[0]));
    def.gates[1].unlocks = ['ghost'];
    def.version = '2026.13.01';
    delete def.cadence;
    const { errors, definition } = checkDefinition(def, { models });
    expect(definition).toBeNull();
    expect(errors).toEqual(
      expect.arrayContaining([
        'cadence: is required but missing',
        'runtimeSteps.0.kind: must be one of llm, image, tool, subWorkflow, agent, code (got "spell")',
        'version "2026.13.01" must be date-tagged as YYYY.MM.DD',
        'gate id "g1" is used more than once',
        'gate "g2" unlocks "ghost", which is not a gate of this workflow',
      ]),
    );
  });

  it('compares the version with the previous one', () => {
    expect(checkDefinition(clone(VALID), { models, previousVersion: '2026.11.01' }).errors).toEqual([
      'version "2026.11.01" must be later than the previous version "2026.11.01"',
    ]);
    expect(checkDefinition(clone(VALID), { models, previousVersion: '2026.10.31' }).errors).toEqual([]);
  });

  it('judges the other steps in place when one step is malformed', () => {
    const def = clone(VALID) as Json;
    def.runtimeSteps.unshift({ id: 'step-0', kind: 'llm' });
    def.runtimeSteps.push({ id: 'step-9', name: 'Tool', kind: 'tool' });
    expect(checkDefinition(def, { models }).errors).toEqual([
      'runtimeSteps.0.name: is required but missing',
      'step 4 ("step-9"): a tool step needs a tool name',
      'step 3 ("step-2"): an approval gate ends the run in review, so it must judge the last step',
    ]);
  });

  it('does not report rule problems that only follow from a broken field', () => {
    const def = clone(VALID) as Json;
    def.providers = 'local/text-1';
    expect(checkDefinition(def, { models }).errors).toEqual(['providers: must be an object (got "local/text-1")']);
  });
});

describe('generated bad definitions (seeded property test)', () => {
  it('rejects every single-mutation mutant with the error that mutation causes', () => {
    const r = rng(20261101);
    for (let i = 0; i < 600; i++) {
      const name = MUTATION_NAMES[i % MUTATION_NAMES.length]!;
      const def = clone(VALID);
      const expected = MUTATIONS[name]!(def, r);
      let check: ReturnType<typeof checkDefinition> | undefined;
      expect(() => (check = checkDefinition(def, { models })), `${name} threw`).not.toThrow();
      expect(check!.definition, `${name}: ${JSON.stringify(def)}`).toBeNull();
      expect(check!.errors.length).toBeGreaterThan(0);
      expect(check!.errors.every(isPlainLanguage), check!.errors.join(' | ')).toBe(true);
      expect(
        check!.errors.some((e) => expected.test(e)),
        `${name} expected ${expected} in ${check!.errors.join(' | ')}`,
      ).toBe(true);
    }
  });

  it('rejects every mutant of up to five stacked mutations, and never throws, also in dry runs', () => {
    const r = rng(7);
    for (let i = 0; i < 1500; i++) {
      let def: Json = clone(VALID);
      if (r.next() < 0.03) def = MUTATIONS.notAnObject!(def, r);
      else for (let n = 1 + r.int(5); n > 0; n--) MUTATIONS[r.pick(MUTATION_NAMES)]!(def, r);
      const check = checkDefinition(def, { models, previousVersion: r.next() < 0.3 ? '2026.10.01' : undefined });
      expect(check.definition, JSON.stringify(def)).toBeNull();
      expect(check.errors.length, JSON.stringify(def)).toBeGreaterThan(0);
      expect(check.errors.every(isPlainLanguage), check.errors.join(' | ')).toBe(true);
      if (asObject(def)) {
        const dry = dryRunDraft({ ...def, intake: clone(VALID_INTAKE) }, { models });
        expect([...dry.errors, ...dry.warnings].every(isPlainLanguage)).toBe(true);
        expect(dry.stepCount).toBe(Array.isArray(def.runtimeSteps) ? def.runtimeSteps.length : 0);
      }
    }
  });

  it('never throws on arbitrary JSON and rejects it', () => {
    const r = rng(99);
    const value = (depth: number): unknown => {
      const kind = r.int(depth > 2 ? 5 : 7);
      if (kind === 0) return null;
      if (kind === 1) return r.int(2) === 0;
      if (kind === 2) return r.next() * 1000 - 500;
      if (kind === 3) return r.pick(['', 'id', 'llm', 'plan-x', '2026.11.01', 'local/text-1']);
      if (kind === 4) return r.pick(['runtimeSteps', 'gates', 'providers']);
      if (kind === 5) return Array.from({ length: r.int(3) }, () => value(depth + 1));
      const keys = ['id', 'name', 'version', 'gates', 'runtimeSteps', 'providers', 'intakeSchema', 'unlocks', 'fields', 'kind'];
      return Object.fromEntries(Array.from({ length: r.int(6) }, () => [r.pick(keys), value(depth + 1)]));
    };
    for (let i = 0; i < 1000; i++) {
      const raw = value(0);
      const check = checkDefinition(raw, { models });
      expect(check.errors.length).toBeGreaterThan(0);
      expect(check.errors.every(isPlainLanguage), check.errors.join(' | ')).toBe(true);
      if (asObject(raw)) expect(() => dryRunDraft(raw as Record<string, unknown>, { models })).not.toThrow();
    }
  });
});

describe('generated bad intakes (seeded property test)', () => {
  const fields = VALID.intakeSchema.fields as IntakeField[];
  const WRONG: Record<string, unknown[]> = {
    topic: [42, true, [], {}],
    depth: ['bogus', 'BRIEF', 3, true],
    count: [1.5, '3', true, []],
    ratio: ['half', true, [], Number.NaN, Number.POSITIVE_INFINITY],
    draft: ['true', 1, []],
    tags: [{}, 'a,b', 3],
    meta: [[], 'x', 3],
    source: ['not-an-id', 42, 'artifact-', {}],
  };
  /** Each mutation breaks one field and says which error that field must now get. */
  const INTAKE_MUTATIONS: Array<(intake: Json, r: Rng) => [string, RegExp]> = [
    (intake, r) => {
      const how = r.int(3);
      if (how === 0) delete intake.topic;
      else intake.topic = how === 1 ? null : r.pick(['', '   ']);
      return ['topic', /^topic is required$/];
    },
    (intake, r) => {
      const name = r.pick(Object.keys(WRONG));
      intake[name] = r.pick(WRONG[name]!);
      return [name, new RegExp(`^${name} must be`)];
    },
  ];

  it('the valid intake resolves', () => {
    expect(resolveIntake(fields, clone(VALID_INTAKE))).toMatchObject({ ok: true });
  });

  it('rejects every mutant intake with a sentence naming the field, and never throws', () => {
    const r = rng(42);
    for (let i = 0; i < 1500; i++) {
      const intake: Json = clone(VALID_INTAKE);
      const expected = new Map([INTAKE_MUTATIONS[i % 2]!(intake, r)]);
      for (let n = r.int(3); n > 0; n--) expected.set(...INTAKE_MUTATIONS[r.int(2)]!(intake, r));
      if (r.next() < 0.3) intake[`extra${r.int(10)}`] = r.next();
      const resolution = resolveIntake(fields, intake);
      expect(resolution.ok, JSON.stringify(intake)).toBe(false);
      if (resolution.ok) continue;
      expect(resolution.errors.every(isPlainLanguage), resolution.errors.join(' | ')).toBe(true);
      for (const [field, pattern] of expected) {
        expect(
          resolution.errors.some((e) => pattern.test(e)),
          `${field}: ${pattern} in ${resolution.errors.join(' | ')}`,
        ).toBe(true);
      }
      const dry = dryRunDraft({ ...clone(VALID), intake }, { models });
      expect(dry.ok).toBe(false);
      expect(dry.errors.length).toBeGreaterThan(0);
      expect(dry.errors.every((e) => e.startsWith('intake: '))).toBe(true);
    }
  });
});

describe('dryRunDraft', () => {
  it('checks a partial draft: absent template fields are warnings, the intake is resolved, steps are priced', () => {
    const { runtimeSteps, providers, intakeSchema } = clone(VALID);
    const result = dryRunDraft(
      { runtimeSteps: runtimeSteps.map(({ gateId: _g, ...s }: Json) => s), providers, intakeSchema, intake: { topic: 'roses' } },
      { models },
    );
    expect(result).toMatchObject({ ok: true, stepCount: 2, errors: [] });
    expect(result.steps).toEqual([
      { id: 'step-1', name: 'Write', kind: 'llm', role: 'textGenerator', model: 'local/text-1' },
      { id: 'step-2', name: 'Shape', kind: 'code', role: null, model: null },
    ]);
    expect(result.warnings).toContain('cadence: is required but missing; a definition needs it before it can be saved');
    expect(result.estimate.estimatedCost.typical).toBeGreaterThan(0);
    expect(result.estimate.highCost).toBe(false);
  });

  it('answers the contract quirk: a templateId and an intake give ok, zero steps and a warning', () => {
    const result = dryRunDraft({ templateId: 'plan-research-report', intake: { topic: 'x' } }, { models });
    expect(result).toMatchObject({ ok: true, stepCount: 0, steps: [], errors: [] });
    expect(result.warnings).toContain(NO_RUNTIME_STEPS_WARNING);
  });

  it('flags a high cost against the cap, or against the threshold without one', () => {
    const steps = Array.from({ length: 3 }, (_, i) => ({ id: `s${i}`, name: 'Draw', kind: 'image', role: 'imageGenerator' }));
    const capped = dryRunDraft(
      { runtimeSteps: steps, providers: { imageGenerator: 'local/image-1' }, budgetPolicy: { perRunCapUsd: 0.05 } },
      { models },
    );
    expect(capped.estimate).toMatchObject({ estimatedCost: { typical: 0.06 }, perRunCapUsd: 0.05, highCost: true });
    expect(capped.warnings.some((w) => /above the per-run cap of 0.05 USD/.test(w))).toBe(true);
    const uncapped = dryRunDraft({ runtimeSteps: steps, providers: { imageGenerator: 'local/image-1' } }, { models });
    expect(uncapped.estimate.highCost).toBe(false);
  });
});

describe('estimateDraft and pricingErrors', () => {
  it('prices each step and the whole', () => {
    const steps = [
      { id: 'a', name: 'A', kind: 'image' as const, role: 'imageGenerator' },
      { id: 'b', name: 'B', kind: 'code' as const, function: 'identity' },
    ];
    expect(estimateDraft(steps, { imageGenerator: 'local/image-1' }, undefined, models)).toEqual({
      estimatedCost: { min: 0.02, typical: 0.02, max: 0.02, currency: 'USD' },
      perRunCapUsd: null,
      highCost: false,
      steps: [
        { id: 'a', typicalUsd: 0.02 },
        { id: 'b', typicalUsd: 0 },
      ],
    });
  });

  it('names unregistered models and unbound roles', () => {
    expect(pricingErrors([{ id: 'a', name: 'A', kind: 'llm', role: 'writer' }], { textGenerator: 'acme/none' }, models)).toEqual([
      'provider binding textGenerator: acme/none is not a registered model (see GET /v1/models)',
      'step 1 ("a"): role "writer" has no model in providers',
    ]);
  });
});
