import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { LOCAL_MODELS, ModelRegistry, compareVersions, workflowRuleErrors } from '@atelier/domain';

/**
 * The platform's built-in workflows ship as files, one per version:
 * `workflows/<workflow-id>/<version>.json`. They are validated by `atelier workflows validate` (and the
 * test suite) and synced into PostgreSQL at start.
 */
export const BUILTIN_WORKFLOWS_DIR = fileURLToPath(new URL('../workflows', import.meta.url));

export interface BuiltinWorkflowFile {
  file: string;
  definition: WorkflowDefinition;
}

export interface CatalogProblem {
  file: string;
  errors: string[];
}

export function readBuiltinWorkflows(dir = BUILTIN_WORKFLOWS_DIR): { workflows: BuiltinWorkflowFile[]; problems: CatalogProblem[] } {
  const workflows: BuiltinWorkflowFile[] = [];
  const problems: CatalogProblem[] = [];
  const models = new ModelRegistry(LOCAL_MODELS);
  for (const id of readdirSync(dir).sort()) {
    const versions = readdirSync(path.join(dir, id))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort(compareVersions);
    let previousVersion: string | undefined;
    for (const version of versions) {
      const file = path.join(id, `${version}.json`);
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      } catch (err) {
        problems.push({ file, errors: [`not valid JSON: ${(err as Error).message}`] });
        continue;
      }
      const parsed = WorkflowDefinition.safeParse(raw);
      if (!parsed.success) {
        problems.push({ file, errors: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) });
        continue;
      }
      const def = parsed.data;
      const errors = workflowRuleErrors(def, { models, previousVersion });
      if (def.id !== id) errors.push(`id "${def.id}" does not match its folder "${id}"`);
      if (def.version !== version) errors.push(`version "${def.version}" does not match its file name "${version}"`);
      if (errors.length > 0) problems.push({ file, errors });
      else workflows.push({ file, definition: def });
      previousVersion = version;
    }
  }
  return { workflows, problems };
}

/** The built-ins, refusing to start when any file is broken. */
export function loadBuiltinWorkflows(dir = BUILTIN_WORKFLOWS_DIR): WorkflowDefinition[] {
  const { workflows, problems } = readBuiltinWorkflows(dir);
  if (problems.length > 0) {
    const text = problems.map((p) => `${p.file}:\n  - ${p.errors.join('\n  - ')}`).join('\n');
    throw new Error(`built-in workflow definitions are invalid:\n${text}`);
  }
  return workflows.map((w) => w.definition);
}

let builtinIds: ReadonlySet<string> | undefined;

/** The ids of the built-in workflows this release ships (their folder names), read once. */
export function builtinWorkflowIds(dir = BUILTIN_WORKFLOWS_DIR): ReadonlySet<string> {
  if (dir !== BUILTIN_WORKFLOWS_DIR) return new Set(readdirSync(dir));
  builtinIds ??= new Set(readdirSync(dir));
  return builtinIds;
}
