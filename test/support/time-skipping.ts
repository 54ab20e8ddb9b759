import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../../src/temporal/create-worker.js';
import { installWorkerLogging } from '../../src/temporal/runtime-logging.js';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The time-skipping test server binary (installed on first use by scripts/install-test-server.sh). */
export function testServerPath(): string {
  const out = execFileSync('bash', [path.join(root, 'scripts/install-test-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exe = out.trim().split('\n').pop();
  if (!exe) throw new Error('scripts/install-test-server.sh printed no path');
  return exe;
}

const noop = () => {};
export const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: console.error, log: noop };

/**
 * A time-skipping test server and the worker's workflow bundle, for one test file's workflow
 * tests (call in beforeAll; tear the environment down in afterAll).
 */
export async function startTimeSkipping(): Promise<{ env: TestWorkflowEnvironment; bundle: WorkflowBundle }> {
  const env = await timeSkippingServer();
  return { env, bundle: await workflowBundle() };
}

/**
 * A time-skipping test server of its own. A test whose workflows could outlive it (a child left
 * running on a task queue whose worker is gone keeps the server from skipping time, and every later
 * sleep then waits in real time) takes one per test; a server starts in about a second.
 */
export async function timeSkippingServer(): Promise<TestWorkflowEnvironment> {
  installWorkerLogging('warn');
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: testServerPath() } },
  });
  await ensureSearchAttributes(env.connection, env.namespace ?? 'default');
  return env;
}

/** The worker's workflow bundle, built once per file and shared by its tests' servers. */
export function workflowBundle(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
}

/**
 * After the clock moves, the worker still has to run what fell due: poll (real time) until it has.
 * The deadline only turns a hang into a message before the test's own 60 s timeout; it is no
 * measure of speed (10 s was once too short for a worker taking over a retried activity while
 * both cores were busy).
 */
export async function until<T>(check: () => Promise<T> | T, pass: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const v = await check();
    if (pass(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
