import { defineConfig } from 'vitest/config';

// `npm test` builds first and sets ATELIER_TEST_BUILD=compiled: test files then import the workspace packages'
// compiled dist/, which Node loads natively, as production does. Run through Vite's module runner instead,
// every file re-evaluated each package's TypeScript, import by import, and the suite spent minutes on it.
const compiled = process.env.ATELIER_TEST_BUILD === 'compiled';

// Otherwise workspace packages resolve to their TypeScript sources under the `atelier-source` export condition
// (their package.json "exports"), so one file runs without a build. Vite's own defaults (less `module`, as
// Vitest leaves it out) follow it, since naming conditions replaces them.
const conditions = [...(compiled ? [] : ['atelier-source']), 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  // The environments test files (ssr) and global setup (__vitest__) run in.
  environments: { ssr: { resolve: { conditions } }, __vitest__: { resolve: { conditions } } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration files each bring up a worker and a gateway; two cores run two files at a time well.
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default'],
    server: { deps: { external: compiled ? [/\/packages\/[^/]+\/dist\//] : [] } },
  },
});
