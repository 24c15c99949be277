import { readFileSync } from 'node:fs';
import { expect, inject, test } from 'vitest';

/**
 * Temporal evaluates a workflow bundle's modules again for every execution (each gets fresh module
 * state), so whatever the workflows import is paid for on every run: zod's schemas once cost a run more
 * CPU than its three steps' bookkeeping. Only the SDK and our pure workflow modules may be bundled.
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
