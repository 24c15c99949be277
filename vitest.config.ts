import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration files each bring up a worker and a gateway; two cores run two files at a time well.
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default'],
  },
});
