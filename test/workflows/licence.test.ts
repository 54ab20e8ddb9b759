// The licence watch on the time-skipping test server: a text a fortnight before the first licence
// runs out, once; a renewal moves the reminder to the new date.
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceWorkflowId, licencesRenewedSignal } from '../../workflows/drivers/definitions.js';
import { fakeActivities } from '../support/fake-activities.js';
import { startTimeSkipping } from '../support/time-skipping.js';

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;
beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
}, 180_000);
afterAll(async () => env?.teardown());

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('licence watch (time-skipping)', () => {
  it('texts the driver a fortnight before the first licence runs out, once, and again for a renewed one', async () => {
    const { activities, world } = fakeActivities();
    const taskQueue = `lic-${randomUUID()}`;
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: bundle, activities });
    await worker.runUntil(async () => {
      const now = await env.currentTimeMs();
      const vehicle = day(now + 40 * DAY); // runs out first
      const driver = day(now + 400 * DAY);
      const driverId = `drv_${randomUUID().slice(0, 8)}`;
      const h = await env.client.workflow.start('driverLicenceWorkflow', {
        workflowId: licenceWorkflowId(driverId), taskQueue, args: [{ driverId, driverLicenceExpires: driver, vehicleLicenceExpires: vehicle }],
      });
      await env.sleep(20 * DAY);
      expect(world.called('sendLicenceReminder')).toEqual([]);
      await env.sleep(10 * DAY); // day 30: past 40 - 14
      await expect.poll(() => world.called('sendLicenceReminder'), { timeout: 5000 }).toEqual([{ driverId, expires: vehicle }]);
      // Renewed for a year: the next reminder is about the driver licence, a fortnight before it.
      const renewedVehicle = day(now + 500 * DAY);
      await h.signal(licencesRenewedSignal, { driverLicenceExpires: driver, vehicleLicenceExpires: renewedVehicle });
      await env.sleep(300 * DAY);
      expect(world.called('sendLicenceReminder')).toHaveLength(1);
      await env.sleep(90 * DAY); // day 420: past 400 - 14
      await expect.poll(() => world.called('sendLicenceReminder'), { timeout: 5000 }).toEqual([{ driverId, expires: vehicle }, { driverId, expires: driver }]);
      // Past the driver licence's last day with no renewal: the watch ends (offers stopped at expiry by themselves).
      expect(await h.result()).toMatchObject({ remindedFor: [vehicle, driver], expires: driver });
    });
  });
});
