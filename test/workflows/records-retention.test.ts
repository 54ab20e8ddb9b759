// The records retention watch on the time-skipping server: it erases what is due at once and each
// minute after, each record once however many looks follow, and answers with its count.
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsRetentionStateQuery } from '../../workflows/records/definitions.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const MINUTE = 60_000;

describe('records retention watch (time-skipping)', () => {
  it('erases each expired record once, at once and each minute after', async () => {
    const { activities, world } = fakeActivities();
    const taskQueue = `records-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      world.recordsExpired.push('TXOLD0000001');
      const h = await env.client.workflow.start('recordsRetentionWorkflow', {
        workflowId: `records:test-${randomUUID()}`,
        taskQueue,
        args: [{}],
      });
      await expect.poll(() => world.recordsErased, { timeout: 5000 }).toEqual(['TXOLD0000001']);
      world.recordsExpired.push('TXOLD0000002');
      await env.sleep(3 * MINUTE);
      await expect.poll(() => world.recordsErased, { timeout: 5000 }).toEqual(['TXOLD0000001', 'TXOLD0000002']);
      const state = await h.query(recordsRetentionStateQuery);
      expect(state.erased).toBe(2);
      expect(state.checks).toBeGreaterThanOrEqual(3);
      await h.terminate('test over');
    });
  });
});
