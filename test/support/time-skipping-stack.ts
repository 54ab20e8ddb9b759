// The real stack (startStack: the shared Postgres, a real worker, the HTTP app) on a Temporal
// time-skipping test server of its own instead of the shared dev server, for integration tests
// about something running out: a driver's offer, a quote. On the dev server those run out by the
// wall clock, so a test either waits for them or, if they must stay open while it works, loses
// them on a busy machine. Here the server's clock only jumps when the test calls
// `temporal.sleep(ms)`; otherwise it keeps real time, and nothing else skips it (the stack's own
// client never unlocks time skipping, as the testing package's client does while awaiting a result).
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes.js';
import { ensureWorkerLogging, startStack, type TestStack } from './stack.js';
import { testServerPath } from './time-skipping.js';

export interface TimeSkippingStack {
  stack: TestStack;
  /** The test server: `temporal.sleep(ms)` moves its clock, firing the timers that fall due. */
  temporal: TestWorkflowEnvironment;
  close(): Promise<void>;
}

export async function startTimeSkippingStack(env: Record<string, string> = {}): Promise<TimeSkippingStack> {
  // The test server starts the worker runtime: its logging must be set first, in a file with no other stack.
  ensureWorkerLogging();
  const temporal = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: testServerPath() } },
  });
  try {
    await ensureSearchAttributes(temporal.connection, temporal.namespace ?? 'default');
    const stack = await startStack({ ...env, TEMPORAL_ADDRESS: temporal.address });
    return {
      stack,
      temporal,
      async close() {
        try {
          await stack.close();
        } finally {
          await temporal.teardown();
        }
      },
    };
  } catch (err) {
    await temporal.teardown();
    throw err;
  }
}
