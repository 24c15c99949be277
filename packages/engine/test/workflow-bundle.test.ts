import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, test } from 'vitest';

/**
 * Whatever the workflows import is paid for by the worker: zod's schemas, evaluated again for every
 * execution, once cost a run more CPU than its three steps' bookkeeping. Only the SDK and our pure workflow
 * modules may be bundled, and those are evaluated once per worker (preloadModules in bundleRunWorkflows).
 */
const ALLOWED_PACKAGES = new Set(['@temporalio/common', '@temporalio/workflow', 'nexus-rpc', 'ms', 'long']);

test('the workflow bundle holds the Temporal SDK and our pure modules only', () => {
  const code = readFileSync(inject('workflowBundlePath'), 'utf8');
  const modules = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"$/gm)].map((m) => m[1]!);
  expect(modules.length).toBeGreaterThan(10);
  const packages = new Set(
    modules
      .filter((m) => m.includes('node_modules/'))
      .map((m) => {
        const parts = m.split('node_modules/').pop()!.split('/');
        return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
      }),
  );
  expect([...packages].filter((p) => !ALLOWED_PACKAGES.has(p))).toEqual([]);
  const ours = modules.filter((m) => !m.includes('node_modules/'));
  expect(ours.some((m) => m.includes('workflows/run-workflow.ts'))).toBe(true);
  expect(ours.filter((m) => m.includes('contracts/src/workflow-definition'))).toEqual([]);
});

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Modules every execution evaluates for itself, so they may keep an execution's state at module scope. */
const PER_EXECUTION = ['workflows/tracing-interceptors'];

test('the workflow modules are evaluated once per worker and keep no execution state at module scope', () => {
  const code = readFileSync(inject('workflowBundlePath'), 'utf8');
  const preload = code.slice(code.indexOf('exports.preloadModules = function'), code.indexOf('exports.importWorkflows'));
  expect(preload).toMatch(/workflows\/index\.[jt]s/);
  // Preloaded modules are shared by every execution in the worker's V8 context: a module-level `let` or `var`
  // would carry one run's state into another's, and break determinism on replay.
  const ours = [...code.matchAll(/^\/\*\*\*\/ "\.\/(packages\/[^"]+)"$/gm)]
    .map((m) => m[1]!)
    .filter((m) => !PER_EXECUTION.some((p) => m.includes(p)));
  expect(ours.length).toBeGreaterThan(5);
  const stateful = ours.filter((m) => /^(export )?(let|var) /m.test(readFileSync(path.join(ROOT, m), 'utf8')));
  expect(stateful).toEqual([]);
});
