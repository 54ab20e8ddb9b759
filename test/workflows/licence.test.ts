// The licence watch on the time-skipping test server: a text a fortnight before the first licence
// runs out and a warning 3 days before, each once; a renewal moves both to the new date and
// cancels the ones still waiting; a renewal after the watch ended (a lapsed driver) starts it again.
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LicenceWatchClient } from '../../src/drivers/licence-client.js';
import { licenceStateQuery, licenceWorkflowId, licencesRenewedSignal } from '../../workflows/drivers/definitions.js';
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
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const now = await env.currentTimeMs();
      const vehicle = day(now + 40 * DAY); // runs out first
      const driver = day(now + 400 * DAY);
      const driverId = `drv_${randomUUID().slice(0, 8)}`;
      const h = await env.client.workflow.start('driverLicenceWorkflow', {
        workflowId: licenceWorkflowId(driverId),
        taskQueue,
        args: [{ driverId, driverLicenceExpires: driver, vehicleLicenceExpires: vehicle }],
      });
      await env.sleep(20 * DAY);
      expect(world.called('sendLicenceReminder')).toEqual([]);
      await env.sleep(10 * DAY); // day 30: past 40 - 14
      await expect
        .poll(() => world.called('sendLicenceReminder'), { timeout: 5000 })
        .toEqual([{ driverId, expires: vehicle }]);
      // Renewed for a year: the next reminder is about the driver licence, a fortnight before it.
      const renewedVehicle = day(now + 500 * DAY);
      await h.signal(licencesRenewedSignal, { driverLicenceExpires: driver, vehicleLicenceExpires: renewedVehicle });
      await env.sleep(300 * DAY);
      expect(world.called('sendLicenceReminder')).toHaveLength(1);
      await env.sleep(90 * DAY); // day 420: past 400 - 14
      await expect
        .poll(() => world.called('sendLicenceReminder'), { timeout: 5000 })
        .toEqual([
          { driverId, expires: vehicle },
          { driverId, expires: driver },
        ]);
      // Past the driver licence's last day with no renewal: the watch ends (offers stopped at expiry by themselves).
      expect(await h.result()).toMatchObject({ remindedFor: [vehicle, driver], expires: driver });
    });
  });

  it("warns 3 days ahead after the fortnight's reminder, each once per date; a renewal cancels the warnings still waiting", async () => {
    const { activities, world } = fakeActivities();
    const taskQueue = `lic-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const now = await env.currentTimeMs();
      const first = day(now + 30 * DAY);
      const driverId = `drv_${randomUUID().slice(0, 8)}`;
      const h = await env.client.workflow.start('driverLicenceWorkflow', {
        workflowId: licenceWorkflowId(driverId),
        taskQueue,
        args: [{ driverId, driverLicenceExpires: first, vehicleLicenceExpires: null }],
      });
      await env.sleep(18 * DAY); // past 30 - 14, before 30 - 3
      await expect
        .poll(() => world.called('sendLicenceReminder'), { timeout: 5000 })
        .toEqual([{ driverId, expires: first }]);
      expect(world.called('sendLicenceLapseWarning')).toEqual([]);
      await env.sleep(11 * DAY); // day 29: past 30 - 3
      await expect
        .poll(() => world.called('sendLicenceLapseWarning'), { timeout: 5000 })
        .toEqual([{ driverId, expires: first, daysLeft: 3 }]);

      // Renewed to day 60: reminded a fortnight before it; renewed again before its 3-day warning, which never goes.
      const second = day(now + 60 * DAY);
      await h.signal(licencesRenewedSignal, { driverLicenceExpires: second, vehicleLicenceExpires: null });
      await env.sleep(20 * DAY); // day 49: past 60 - 14
      await expect
        .poll(() => world.called('sendLicenceReminder'), { timeout: 5000 })
        .toEqual([
          { driverId, expires: first },
          { driverId, expires: second },
        ]);
      const third = day(now + 400 * DAY);
      await h.signal(licencesRenewedSignal, { driverLicenceExpires: third, vehicleLicenceExpires: null });
      await expect.poll(async () => (await h.query(licenceStateQuery)).expires, { timeout: 5000 }).toBe(third);
      await env.sleep(20 * DAY); // day 69: well past day 60's 3-day warning, had it stood
      expect(world.called('sendLicenceLapseWarning')).toEqual([{ driverId, expires: first, daysLeft: 3 }]);
      expect(world.called('sendLicenceReminder')).toHaveLength(2);
      expect(await h.query(licenceStateQuery)).toMatchObject({
        expires: third,
        remindedFor: [first, second],
        warnedFor: [first],
      });
      await h.terminate('test over');
    });
  });

  it('starts the watch again for a driver whose licence lapsed, once the renewal is approved', async () => {
    const { activities, world } = fakeActivities();
    const taskQueue = `lic-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    await worker.runUntil(async () => {
      const now = await env.currentTimeMs();
      // Approved two days before the licence runs out: the 3-day warning at once, not the fortnight's reminder as well.
      const lapsing = day(now + 2 * DAY);
      const driverId = `drv_${randomUUID().slice(0, 8)}`;
      const h = await env.client.workflow.start('driverLicenceWorkflow', {
        workflowId: licenceWorkflowId(driverId),
        taskQueue,
        args: [{ driverId, driverLicenceExpires: null, vehicleLicenceExpires: lapsing }],
      });
      await expect
        .poll(() => world.called('sendLicenceLapseWarning'), { timeout: 5000 })
        .toEqual([{ driverId, expires: lapsing, daysLeft: 3 }]);
      expect(world.called('sendLicenceReminder')).toEqual([]);
      await env.sleep(4 * DAY);
      // Not renewed by the end of its last day: the watch has ended.
      await expect.poll(async () => (await h.describe()).status.name, { timeout: 5000 }).toBe('COMPLETED');
      expect(await h.query(licenceStateQuery)).toMatchObject({ expires: lapsing, warnedFor: [lapsing] });

      const renewed = day(now + 200 * DAY);
      expect(
        await new LicenceWatchClient(env.client, taskQueue).renew(driverId, {
          driverLicenceExpires: null,
          vehicleLicenceExpires: renewed,
        }),
      ).toBe('restarted');
      const restarted = env.client.workflow.getHandle(licenceWorkflowId(driverId));
      await expect
        .poll(async () => (await restarted.query(licenceStateQuery)).expires, { timeout: 5000 })
        .toBe(renewed);
      // A second approval (a retry, or the other licence) tells the running watch rather than starting another.
      expect(
        await new LicenceWatchClient(env.client, taskQueue).renew(driverId, {
          driverLicenceExpires: null,
          vehicleLicenceExpires: renewed,
        }),
      ).toBe('signalled');
      await env.sleep(190 * DAY); // past 200 - 14
      await expect
        .poll(() => world.called('sendLicenceReminder'), { timeout: 5000 })
        .toEqual([{ driverId, expires: renewed }]);
      await restarted.terminate('test over');
    });
  });
});
