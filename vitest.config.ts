import { defineConfig } from 'vitest/config';

// Two projects: pure-logic unit tests run without any server; integration tests share one
// real Postgres and one real Temporal dev server started (or reused) by the global setup.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Files share one Temporal server and one database; keep the 2-core machine from thrashing.
          fileParallelism: false,
        },
      },
    ],
  },
});
