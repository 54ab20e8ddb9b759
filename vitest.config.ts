import { defineConfig } from 'vitest/config';

// Three projects: pure-logic unit tests run without any server; workflow tests run the workflows
// on Temporal's time-skipping test server with faked activities; integration tests share one real
// Postgres and one real Temporal dev server started (or reused) by the global setup.
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
          name: 'workflows',
          include: ['test/workflows/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each file runs its own test server and workflow bundle; one at a time on 2 cores.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          // Only turns a hang into a message. CI runs this project on both topologies at once
          // (.ci/run), so a long Chromium walk (31 s alone) must not fail at 60 s on a busy machine.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Files share one Temporal server and one database; keep the 2-core machine from thrashing.
          fileParallelism: false,
        },
      },
    ],
  },
});
