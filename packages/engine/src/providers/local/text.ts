import { pick, seededRandom } from '../seeded-random.js';

/**
 * The `local` provider's text model. It is offline and deterministic: the same prompt and seed give the
 * same answer. Its subject is the first quoted phrase of the prompt (else its first words); with a
 * jsonSchema it answers with a value that conforms to the schema, written from that subject, so that
 * structured workflows produce readable, schema-valid output without a network.
 */
export interface LocalTextRequest {
  prompt: string;
  jsonSchema?: Record<string, unknown>;
  seed: string;
}

export interface LocalTextAnswer {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
}

type Schema = Record<string, unknown>;

const HEADINGS = [
  'Background',
  'Current landscape',
  'Key drivers',
  'Evidence and examples',
  'Risks and open questions',
  'Outlook',
  'Recommendations',
];
const OPENERS = ['A close look at', 'Practitioners describing', 'Recent work on', 'Most accounts of', 'Any serious treatment of'];
const CLAIMS = [
  'points to a small number of factors that explain most of the variation',
  'shows steady change rather than sudden breaks',
  'depends heavily on context, scale and the incentives of the people involved',
  'rewards careful measurement over broad generalisation',
  'has moved from experimentation towards established practice',
  'is shaped as much by cost and access as by technical merit',
];
const FOLLOWUPS = [
  'The practical consequence is that decisions should be revisited as conditions change.',
  'This matters most where resources are limited and trade-offs are visible.',
  'It is worth separating what is well established from what is still argued.',
  'Comparable cases suggest the pattern holds beyond a single setting.',
];

export function subjectOf(prompt: string): string {
  const quoted = /["“]([^"”]{2,120})["”]/.exec(prompt);
  if (quoted?.[1]) return quoted[1].trim();
  return prompt.split(/\s+/).filter(Boolean).slice(0, 8).join(' ') || 'the subject';
}

const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function sentence(random: () => number, subject: string, topic?: string): string {
  const about = topic ? `${topic.toLowerCase()} in ${subject}` : subject;
  return `${pick(random, OPENERS)} ${about} ${pick(random, CLAIMS)}. ${pick(random, FOLLOWUPS)}`;
}

function fitLength(text: string, schema: Schema): string {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  let out = max !== undefined && text.length > max ? text.slice(0, max) : text;
  while (out.length < min) out += ` ${out}`;
  return max !== undefined ? out.slice(0, max) : out;
}

function stringFor(key: string, schema: Schema, random: () => number, subject: string, index: number): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(pick(random, schema.enum));
  if (typeof schema.const === 'string') return schema.const;
  const k = key.toLowerCase();
  const hex = () =>
    `#${Math.floor(random() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`;
  if (typeof schema.pattern === 'string' && schema.pattern.includes('#[0-9a-fA-F]{6}')) return hex();
  if (schema.format === 'date')
    return `2026-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
  if (schema.format === 'email')
    return `${
      subject
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '.')
        .replace(/^\.|\.$/g, '') || 'hello'
    }@example.com`;
  if (k.includes('color') || k.includes('colour')) return hex();
  let text: string;
  if (schema.format === 'uri' || k.endsWith('url'))
    text = `https://local.atelier.invalid/${encodeURIComponent(subject.toLowerCase().replace(/\s+/g, '-'))}/${index + 1}`;
  else if (k.includes('title'))
    text = `${capitalise(subject)}: ${pick(random, ['an overview', 'what matters now', 'a working brief', 'the state of play'])}`;
  else if (k.includes('heading') || k.includes('angle')) text = `${HEADINGS[index % HEADINGS.length]} of ${subject}`;
  else if (k.includes('source')) text = `${capitalise(subject)} — local reference note ${index + 1} (local/text-1 knowledge base)`;
  else if (k.includes('prompt'))
    text = `${capitalise(subject)}, ${pick(random, ['clear composition', 'soft light', 'bold shapes', 'balanced colour'])}, detailed`;
  else if (k.includes('summary') || k.includes('body') || k.includes('description') || k.includes('text') || k.includes('reason')) {
    const topic = k.includes('body') ? HEADINGS[index % HEADINGS.length] : undefined;
    text = `${sentence(random, subject, topic)} ${sentence(random, subject)}`;
  } else text = `${capitalise(subject)} (${key || 'value'} ${index + 1})`;
  return fitLength(text, schema);
}

function numberFor(schema: Schema, random: () => number, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : min + 100;
  const value = min + random() * (max - min);
  return integer ? Math.min(max, Math.max(min, Math.round(value))) : Math.round(value * 100) / 100;
}

function valueFor(schema: Schema, key: string, random: () => number, subject: string, index: number): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(random, schema.enum);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(properties)) out[name] = valueFor(child, name, random, subject, index);
      return out;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Math.max(min, 4);
      const count = min + Math.floor(random() * (max - min + 1));
      const items = (schema.items ?? { type: 'string' }) as Schema;
      return Array.from({ length: count }, (_, i) => valueFor(items, key.replace(/s$/, ''), random, subject, i));
    }
    case 'integer':
      return numberFor(schema, random, true);
    case 'number':
      return numberFor(schema, random, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringFor(key, schema, random, subject, index);
  }
}

/**
 * The local model's agent policy: call each offered tool once, in order, on the subject, then finish
 * with an answer that cites what the tools returned. Deterministic, and always within a turn limit at
 * least one larger than the number of tools.
 */
function agentTurn(schema: Schema, prompt: string, random: () => number, subject: string): unknown {
  const tools = (((schema.properties as Record<string, Schema> | undefined)?.tool?.enum ?? []) as string[]).map(String);
  const called = new Set([...prompt.matchAll(/called (\w+) with/g)].map((m) => m[1]));
  const next = tools.find((t) => !called.has(t));
  if (next) return { action: 'call_tool', tool: next, arguments: { text: subject } };
  const findings = [...prompt.matchAll(/-> (.+)$/gm)].map((m) => m[1]).join('; ');
  return { action: 'finish', answer: `${sentence(random, subject)}${findings ? ` Tool findings: ${findings}.` : ''}` };
}

export function localTextAnswer(req: LocalTextRequest): LocalTextAnswer {
  const random = seededRandom(`${req.seed}\u0000${req.prompt}`);
  const subject = subjectOf(req.prompt);
  const text = req.jsonSchema
    ? JSON.stringify(
        req.jsonSchema['x-atelier-agent']
          ? agentTurn(req.jsonSchema, req.prompt, random, subject)
          : valueFor(req.jsonSchema, '', random, subject, 0),
      )
    : [0, 1, 2].map(() => sentence(random, subject)).join(' ');
  return { text, usage: { inputTokens: tokens(req.prompt), outputTokens: tokens(text) } };
}
