// The drivers' location watch on the time-skipping test server: it looks each minute, a quiet
// driver is warned once however many looks follow, and a day of looks continues as new.
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION_WATCH_CHECKS_PER_RUN, locationWatchStateQuery } from '../../workflows/drivers/definitions.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const MINUTE = 60_000;

describe('drivers’ location watch (time-skipping)', () => {
  it('warns each quiet driver once, looking every minute, and continues as new after a day', async () => {
    const { activities, world } = fakeActivities();
    const taskQueue = `location-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const h = await env.client.workflow.start('driverLocationWatchWorkflow', {
        workflowId: `location-watch:test-${randomUUID()}`,
        taskQueue,
        args: [{}],
      });
      const firstRun = (await h.describe()).runId;
      await expect.poll(() => world.called('warnDriversLosingLocation').length, { timeout: 5000 }).toBe(1);

      world.quietDrivers.push('parked-on-rank');
      await env.sleep(MINUTE);
      await expect.poll(() => world.locationWarned, { timeout: 5000 }).toEqual(['parked-on-rank']);
      await env.sleep(30 * MINUTE);
      expect(world.locationWarned).toEqual(['parked-on-rank']);
      const state = await h.query(locationWatchStateQuery);
      expect(state.warned).toBe(1);
      expect(state.checks).toBeGreaterThanOrEqual(31);

      await env.sleep(LOCATION_WATCH_CHECKS_PER_RUN * MINUTE);
      await expect.poll(async () => (await h.describe()).runId !== firstRun, { timeout: 10_000 }).toBe(true);
      const next = env.client.workflow.getHandle(h.workflowId);
      await expect.poll(async () => (await next.query(locationWatchStateQuery)).warnedTotal, { timeout: 5000 }).toBe(1);
      await next.terminate('test over');
    });
  }, 120_000);
});
