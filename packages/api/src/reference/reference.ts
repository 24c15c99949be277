import { readFileSync } from 'node:fs';

/**
 * The API reference's words, one Markdown file a tag beside this module (`clients.md`, `API keys` in
 * `api-keys.md`): the tag's description, then a section an operation, headed by its method and its path in
 * the contract's form. A section holds the summary (its first paragraph), the description (the paragraphs
 * after it), and last the lines `Operation id: …` (where the generated one will not do), `Answer: …` (what
 * its success answer is, where the route gives the answer's schema alone) and `Errors: …` (the statuses its
 * handler may answer besides). The routes hold the mechanics (schemas, handlers); what the
 * document says of each operation is read and reviewed here, in one place a resource.
 */
export interface OperationReference {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As the contract writes it: `/v1/subjects/{subject_id}:erase`. */
  path: string;
  summary: string;
  description: string;
  operationId?: string;
  answer?: string;
  errors: number[];
}

export interface TagReference {
  name: string;
  description: string;
  operations: Map<string, OperationReference>;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const FIELD = /^(Operation id|Answer|Errors): (.+)$/;

/** Paragraphs of a section's lines: blank lines part them, and a paragraph's lines join with a space. */
function paragraphsOf(lines: string[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of [...lines, '']) {
    if (line.trim() !== '') current.push(line.trim());
    else if (current.length > 0) {
      paragraphs.push(current.join(' '));
      current = [];
    }
  }
  return paragraphs;
}

function operationOf(heading: string, lines: string[], where: string): OperationReference {
  const [verb, path, extra] = heading.split(' ');
  const method = verb?.toLowerCase() ?? '';
  if (!METHODS.has(method) || !path?.startsWith('/') || extra !== undefined)
    throw new Error(`${where}: "## ${heading}" is not "## METHOD /path"`);
  const op: OperationReference = { method: method as OperationReference['method'], path, summary: '', description: '', errors: [] };
  // The fields are the section's last lines, one a line; the prose is what stands above them.
  let end = lines.length;
  while (end > 0 && (lines[end - 1]!.trim() === '' || FIELD.test(lines[end - 1]!))) end--;
  for (const line of lines.slice(end)) {
    const [, name, value] = FIELD.exec(line) ?? [];
    if (name === 'Errors') op.errors = value!.split(',').map((s) => Number(s.trim()));
    else if (name === 'Answer') op.answer = value!.trim();
    else if (name === 'Operation id') op.operationId = value!.trim();
  }
  if (op.errors.some((s) => !Number.isInteger(s) || s < 400 || s > 599))
    throw new Error(`${where}: ${heading} lists an error that is not a 4xx or 5xx`);
  const [summary, ...description] = paragraphsOf(lines.slice(0, end));
  if (!summary || description.length === 0) throw new Error(`${where}: ${heading} needs a summary and a description`);
  op.summary = summary;
  op.description = description.join('\n\n');
  return op;
}

/** Reads one tag's file; `where` names it in errors. Throws on anything out of form, so a bad file stops the gateway at start. */
export function parseReference(markdown: string, where: string): TagReference {
  const lines = markdown.split('\n');
  const title = lines.findIndex((l) => l.startsWith('# '));
  if (title < 0) throw new Error(`${where}: no "# tag" title`);
  const headings = lines.flatMap((l, i) => (l.startsWith('## ') ? [i] : []));
  const intro = paragraphsOf(lines.slice(title + 1, headings[0] ?? lines.length));
  const reference: TagReference = { name: lines[title]!.slice(2).trim(), description: intro.join('\n\n'), operations: new Map() };
  headings.forEach((start, n) => {
    const op = operationOf(lines[start]!.slice(3).trim(), lines.slice(start + 1, headings[n + 1] ?? lines.length), where);
    const key = `${op.method.toUpperCase()} ${op.path}`;
    if (reference.operations.has(key)) throw new Error(`${where}: ${key} twice`);
    reference.operations.set(key, op);
  });
  return reference;
}

const fileOf = (tag: string) => `${tag.toLowerCase().replaceAll(' ', '-')}.md`;
const loaded = new Map<string, TagReference>();

/** A tag's reference, read once per process from the Markdown file beside this module. */
export function referenceOf(tag: string): TagReference {
  let reference = loaded.get(tag);
  if (!reference) {
    const file = fileOf(tag);
    reference = parseReference(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8'), file);
    if (reference.name !== tag) throw new Error(`${file}: titled "${reference.name}", read for tag "${tag}"`);
    loaded.set(tag, reference);
  }
  return reference;
}

let inOrder: TagReference[] | undefined;

/** Every tag's reference, in the order of the reference's index (index.md): the order /docs shows them in. */
export function tagsInOrder(): TagReference[] {
  inOrder ??= [...readFileSync(new URL('./index.md', import.meta.url), 'utf8').matchAll(/^- \[(.+)\]\(.+\.md\)$/gm)].map((m) =>
    referenceOf(m[1]!),
  );
  return inOrder;
}
