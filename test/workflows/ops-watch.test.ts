// The ops watcher on the time-skipping test server: it looks each minute, a booking due is
// alerted once however many looks follow, and a day of looks continues as new with its count.
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_WATCH_CHECKS_PER_RUN, opsWatchStateQuery } from '../../workflows/ops/definitions.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const MINUTE = 60_000;

describe('ops watcher (time-skipping)', () => {
  it('alerts each booking once, every minute, and continues as new after a day of looks', async () => {
    const { activities, world } = fakeActivities();
    const taskQueue = `ops-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      // A unique id per test; production uses OPS_WATCH_WORKFLOW_ID.
      const h = await env.client.workflow.start('opsWatchWorkflow', {
        workflowId: `ops-watch:test-${randomUUID()}`,
        taskQueue,
        args: [{}],
      });
      const firstRun = (await h.describe()).runId;
      await expect.poll(() => world.called('alertUnassignedNearPickup').length, { timeout: 5000 }).toBe(1);

      world.unassignedNearPickup.push('TXAAAAAAAAAA');
      await env.sleep(MINUTE);
      await expect.poll(() => world.opsAlerted, { timeout: 5000 }).toEqual(['TXAAAAAAAAAA']);
      await env.sleep(10 * MINUTE);
      world.unassignedNearPickup.push('TXBBBBBBBBBB');
      await env.sleep(MINUTE);
      await expect.poll(() => world.opsAlerted, { timeout: 5000 }).toEqual(['TXAAAAAAAAAA', 'TXBBBBBBBBBB']);
      const state = await h.query(opsWatchStateQuery);
      expect(state.alerted).toBe(2);
      expect(state.checks).toBeGreaterThanOrEqual(12);
      expect(state.checks).toBeLessThanOrEqual(14);

      // A day of looks, then a new run carrying the total, with a fresh (bounded) history.
      await env.sleep(OPS_WATCH_CHECKS_PER_RUN * MINUTE);
      await expect.poll(async () => (await h.describe()).runId !== firstRun, { timeout: 10_000 }).toBe(true);
      const next = env.client.workflow.getHandle(h.workflowId);
      await expect.poll(async () => (await next.query(opsWatchStateQuery)).alertedTotal, { timeout: 5000 }).toBe(2);
      expect((await next.query(opsWatchStateQuery)).checks).toBeLessThan(OPS_WATCH_CHECKS_PER_RUN / 2);
      expect(world.opsAlerted).toEqual(['TXAAAAAAAAAA', 'TXBBBBBBBBBB']);
      await next.terminate('test over');
    });
  }, 120_000);
});
