import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources under the `atelier-source` export condition
// (their package.json "exports"); without it they would resolve to the compiled dist/. Vite's own
// defaults (less `module`, as Vitest leaves it out) follow it, since naming conditions replaces them.
const conditions = ['atelier-source', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  // The environments test files (ssr) and global setup (__vitest__) run in.
  environments: { ssr: { resolve: { conditions } }, __vitest__: { resolve: { conditions } } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // A page's polls wait for a render that follows an API call (the console's tests); on a busy two-core
    // machine that takes more than the default second (console-run-page's date filter failed so, on fa056a5).
    expect: { poll: { timeout: 10_000 } },
    // Integration files each bring up a worker and a gateway; two cores run two files at a time well.
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default'],
  },
});
