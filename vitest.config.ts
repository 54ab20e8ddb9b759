import { defineConfig } from 'vitest/config';
import { integrationWorkers } from './test/support/worker-slots.js';

// Three projects: pure-logic unit tests run without any server; workflow tests run the workflows
// on Temporal's time-skipping test server with faked activities; integration tests share one real
// Postgres and one real Temporal dev server started (or reused) by the global setup.
//
// Vitest runs groups one after another (sequence.groupOrder), each with its own number of workers:
// the unit files first, then the integration files, then the workflow files one at a time (two at
// a time on 2 cores took as long: each is CPU-bound). The integration files share one Postgres and
// one Temporal server, each worker process with a database and a namespace of its own
// (test/support/shared-servers.ts), two at a time by default (TEST_INTEGRATION_WORKERS,
// test/support/worker-slots.ts). Each worker runs its files in one process (isolate: false, issue 38
// item 5): a file no longer pays for a fresh process and a fresh import of the service's modules.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
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
          setupFiles: ['test/support/file-setup.ts'],
          // Only turns a hang into a message: a long Chromium walk (31 s alone) must not fail at
          // 60 s on a busy machine.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          maxWorkers: integrationWorkers(),
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
