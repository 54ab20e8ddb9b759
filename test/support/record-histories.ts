// Records the histories the replay test keeps for a release, under
// test/histories/releases/<package.json version>/ (docs/versioning.md). Run when a version is
// released, and after a patched() change to record its new paths under new scenario names:
//   npx tsx test/support/record-histories.ts
// A history already recorded is never overwritten: running workflows still have the old ones, and
// replaying them is the point. HISTORIES_OUT writes elsewhere (the scripts test records into a
// temporary folder). Starts its own throwaway Postgres and Temporal dev server on free ports.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { activityDeps } from '../../src/services.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { createSql } from '../../src/db/sql.js';
import { startPostgresProcess } from '../../dev/postgres-process.js';
import { freePort } from '../../dev/free-port.js';
import { startTemporalDevServer, temporalCliPath } from '../../dev/temporal-dev-server.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { createWorker } from '../../src/temporal/create-worker.js';
import { quoteWorkflowId, redeemQuoteUpdate } from '../../workflows/quotes/definitions.js';
import {
  amendBookingUpdate,
  bookingCreatedUpdate,
  bookingStateQuery,
  bookingWorkflowId,
  cancelBookingUpdate,
  cancelBookingUpdate as cancelUpdate,
  driverSuspendedSignal,
  emailConfirmedSignal,
  offerSeenSignal,
  exchangeStatusSignal,
  endTripUpdate,
  offerToDriverUpdate,
  claimUpcomingJobUpdate,
  reportTripUpdate,
  respondToOfferUpdate,
  settleBookingUpdate,
} from '../../workflows/bookings/definitions.js';
import {
  licenceWorkflowId,
  licencesRenewedSignal,
  locationWatchStateQuery,
  suspensionWorkflowId,
} from '../../workflows/drivers/definitions.js';
import { assignFleetDriverUpdate } from '../../workflows/bookings/definitions.js';
import { partnerJobWorkflowId, submitJobUpdate, type JobSubmission } from '../../workflows/partners/job-definitions.js';
import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/client';
import {
  cancelSubscriptionSignal,
  extendTrialUpdate,
  invoiceCollectionWorkflowId,
  invoicePaymentSignal,
  subscriptionStateQuery,
  subscriptionWorkflowId,
} from '../../workflows/billing/definitions.js';
import { weekStartOf } from '../../src/model/billing.js';
import { deliveryWorkflowId, eventsRecordedSignal } from '../../workflows/partners/delivery-definitions.js';
import { issueWebhookSecret } from '../../src/partners/event-store.js';
import { saveExchangeRegistration } from '../../src/exchange/register.js';
import { saveWebhookSecret } from '../../src/exchange/store.js';
import { recordOperatorLicence } from '../../src/operator-licences/store.js';
import { opsWatchStateQuery } from '../../workflows/ops/definitions.js';
import { recordsRetentionStateQuery } from '../../workflows/records/definitions.js';
import { BOOKING_WORKFLOW_TYPE } from '../../src/bookings/client.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const here = path.dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(fs.readFileSync(path.join(here, '../../package.json'), 'utf8')) as { version: string };
const outDir = process.env.HISTORIES_OUT ?? path.join(here, '../histories/releases', version);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-record-'));
const pg = await startPostgresProcess({ dataDir: path.join(tmp, 'pg'), port: await freePort(), persistent: false });
const temporal = await startTemporalDevServer({ port: await freePort(), readyTimeoutMs: 120_000 });
const sql = createSql(pg.url, 2);
await migrate(sql);
const { client, connection } = await connectTemporal({ address: temporal.address, namespace: 'default' });
const taskQueue = 'record-histories';
const config = loadConfig({ DATABASE_URL: pg.url, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: taskQueue });
const { worker, connection: workerConnection } = await createWorker({
  address: temporal.address,
  namespace: 'default',
  taskQueue,
  deps: activityDeps(config, sql),
});

async function insertQuote(id: string, expiresAt: Date) {
  await sql`
    insert into quotes (id, contract, pickup_query, dropoff_query, pickup, dropoff, depart_at, vehicle_type, passengers,
                        fare_pence, distance_m, duration_s, rules, tariff, expires_at)
    values (${id}, 'v1', 'a', 'b', '{}', '{}', now(), 'saloon', 1, 1000, 1000, 100, '[]', '{}', ${expiresAt})`;
}

const policy: {
  dispatchLeadSeconds: number;
  offerTimeoutSeconds: number;
  retryBaseSeconds: number;
  maxRetrySeconds: number;
  noShowGraceSeconds: number;
  confirmAskSeconds?: number;
  confirmDeadlineSeconds?: number;
  lateAcceptWindowSeconds?: number;
  offerGroupSize?: number;
  offerUnseenSeconds?: number;
} = {
  dispatchLeadSeconds: 900,
  offerTimeoutSeconds: 1,
  retryBaseSeconds: 60,
  maxRetrySeconds: 600,
  noShowGraceSeconds: 600,
};
const place = { label: 'Record Town', kind: 'place', lat: 55.0, lon: -3.0, postcodeDistrict: null, council: null };

async function insertDriver(id: string, seats = 4, vehicleType = 'saloon', lat = 55.001) {
  await sql`insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, seats, online, lat, lon, location_at)
            values (${id}, ${id}, '+447700900999', 'local', 'record-area', true, ${vehicleType}, ${seats}, true, ${lat}, -3.0, now())
            on conflict (id) do update set online = true, location_at = now()`;
}

/** `agent` books as POST bookings/instant does: no email, so the booking is dispatched at once. */
function bookingInput(
  ref: string,
  awaitEmailConfirmation = false,
  over: { pickupInMs?: number; policy?: Partial<typeof policy>; agent?: boolean } = {},
) {
  return {
    booking: {
      ref,
      source: over.agent ? ('agent_instant' as const) : ('v1_direct' as const),
      quoteId: null,
      passengerName: 'Rec Order',
      passengerPhone: '+447400123456',
      passengerEmail: over.agent ? null : 'rec.order@example.com',
      emailVerified: !awaitEmailConfirmation,
      paymentMethod: 'cash',
      flightNumber: null,
      agent: null,
      pickupQuery: 'a',
      dropoffQuery: 'b',
      pickup: place,
      dropoff: place,
      pickupArea: 'record-area',
      farePence: 1234,
      fareSource: 'tariff' as const,
      distanceM: 5000,
      durationS: 900,
      requestFingerprint: null,
    },
    job: {
      pickupAt: new Date(Date.now() + (over.pickupInMs ?? 0)).toISOString(),
      passengers: 1,
      vehicleType: 'saloon',
      wheelchair: false,
      notes: null,
    },
    policy: { ...policy, ...over.policy },
    awaitEmailConfirmation,
  };
}

/** Waits until the booking's current offer goes to `driverId`, and returns its id. */
async function offerTo(ref: string, driverId: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const s = await client.workflow.getHandle(bookingWorkflowId(ref)).query(bookingStateQuery);
    if (s.offer?.driverId === driverId) return s.offer.offerId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no offer to ${driverId}`);
}

/** Waits until the booking's job card is out with a driver (whoever), and returns the offer. */
async function anyOffer(ref: string): Promise<{ offerId: string; driverId: string }> {
  for (let i = 0; i < 300; i++) {
    const s = await client.workflow.getHandle(bookingWorkflowId(ref)).query(bookingStateQuery);
    if (s.offer && s.status === 'offered') return s.offer;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no offer of ${ref}`);
}

async function startBookingWorkflow(
  ref: string,
  awaitEmailConfirmation = false,
  over: Parameters<typeof bookingInput>[2] = {},
) {
  const h = await client.workflow.start(BOOKING_WORKFLOW_TYPE, {
    workflowId: bookingWorkflowId(ref),
    taskQueue,
    args: [bookingInput(ref, awaitEmailConfirmation, over)],
  });
  return h;
}

/** Sends submissions to a partner job reference's workflow as the intake does (update-with-start). */
function jobSubmitter(partnerId: string, jobRef: string) {
  return (sub: JobSubmission) =>
    client.workflow.executeUpdateWithStart(submitJobUpdate, {
      args: [sub],
      startWorkflowOperation: new WithStartWorkflowOperation('partnerJobWorkflow', {
        workflowId: partnerJobWorkflowId(partnerId, jobRef),
        taskQueue,
        args: [{ partnerId, jobRef }],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      }),
    });
}

/** The group's open cards once they are out to exactly these drivers, in this order. */
async function cardsOutTo(ref: string, ids: string[]) {
  for (let i = 0; i < 200; i++) {
    const s = await client.workflow.getHandle(bookingWorkflowId(ref)).query(bookingStateQuery);
    if (JSON.stringify((s.group ?? []).map((o) => o.driverId)) === JSON.stringify(ids)) return s.group!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no cards out to ${ids.join(', ')}`);
}

async function waitForStatus(ref: string, status: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await client.workflow.getHandle(bookingWorkflowId(ref)).query(bookingStateQuery);
    if (s.status === status) return s;
    if (Date.now() > deadline) throw new Error(`${ref} never became ${status} (is ${s.status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

await worker.runUntil(async () => {
  // Each scenario returns the workflow id whose history it leaves behind.
  const scenarios: Record<string, () => Promise<string>> = {
    'quote-redeemed': async () => {
      const id = crypto.randomUUID();
      await insertQuote(id, new Date(Date.now() + 3600_000));
      const h = await client.workflow.start('quoteWorkflow', {
        workflowId: quoteWorkflowId(id),
        taskQueue,
        args: [{ quoteId: id, expiresAt: new Date(Date.now() + 3600_000).toISOString() }],
      });
      await h.executeUpdate(redeemQuoteUpdate, { args: [{ requestId: 'r1', bookingRef: 'BK1' }] });
      await h.result();
      return h.workflowId;
    },
    'quote-expired': async () => {
      const id = crypto.randomUUID();
      await insertQuote(id, new Date(Date.now() + 1000));
      const h = await client.workflow.start('quoteWorkflow', {
        workflowId: quoteWorkflowId(id),
        taskQueue,
        args: [{ quoteId: id, expiresAt: new Date(Date.now() + 1000).toISOString() }],
      });
      await h.result();
      return h.workflowId;
    },
    // Decline, timeout, accept, then the whole trip to completion.
    'booking-cascade-completed': async () => {
      await insertDriver('rec-a', 4, 'saloon', 55.001);
      await insertDriver('rec-b', 4, 'saloon', 55.002);
      await insertDriver('rec-c', 4, 'saloon', 55.003);
      const ref = 'TXREC00001';
      const h = await startBookingWorkflow(ref);
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-a'), driverId: 'rec-a', decision: 'decline' }],
      });
      await offerTo(ref, 'rec-b'); // left to time out
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-c'), driverId: 'rec-c', decision: 'accept' }],
      });
      // (The kept recording was made when trip progress came as signals; today's API is the update.)
      for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-c', event }] });
      // (And before settlement: a completed trip now waits for what was paid.)
      await h.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'rec-c', amountPence: 1000, method: 'cash', by: 'driver' }],
      });
      await h.result();
      return h.workflowId;
    },
    // Held for email confirmation, confirmed, assigned, amended beyond the driver, reassigned, cancelled.
    'booking-confirmed-amended-cancelled': async () => {
      await insertDriver('rec-d', 4, 'saloon', 55.001);
      await insertDriver('rec-e', 6, '6seater', 55.004);
      const ref = 'TXREC00002';
      const h = await startBookingWorkflow(ref, true);
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.signal(emailConfirmedSignal);
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-d'), driverId: 'rec-d', decision: 'accept' }],
      });
      await h.executeUpdate(amendBookingUpdate, { args: [{ passengers: 6, vehicleType: '6seater' }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-e'), driverId: 'rec-e', decision: 'accept' }],
      });
      await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-e', event: 'drop' }] });
      await h.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // From here on: recorded with the paged cascade, search attributes and trip reports as updates.
    'booking-paged-cascade-reported-trip': async () => {
      await insertDriver('rec-f', 4, 'saloon', 55.001);
      await insertDriver('rec-g', 4, 'saloon', 55.002);
      const ref = 'TXREC00003';
      const h = await startBookingWorkflow(ref);
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-f'), driverId: 'rec-f', decision: 'decline' }],
      });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-g'), driverId: 'rec-g', decision: 'accept' }],
      });
      for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-g', event }] });
      await h.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'rec-g', amountPence: 1000, method: 'cash', by: 'driver' }],
      });
      await h.result();
      return h.workflowId;
    },
    // Nobody within reach: unassigned, ops alerted, retried on a backoff until pickup, then cancelled in the grace hour.
    'booking-unassigned-backoff': async () => {
      const ref = 'TXREC00004';
      const h = await client.workflow.start(BOOKING_WORKFLOW_TYPE, {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [
          {
            ...bookingInput(ref, false, { pickupInMs: 4000, policy: { retryBaseSeconds: 1, maxRetrySeconds: 2 } }),
            booking: { ...bookingInput(ref).booking, pickupArea: 'nowhere', pickup: { ...place, lat: 10, lon: 10 } },
          },
        ],
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await new Promise((r) => setTimeout(r, 6000));
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // Assigned driver never arrives: reassigned after the grace, the next driver takes it, then cancelled.
    'booking-no-show': async () => {
      await insertDriver('rec-h', 4, 'saloon', 55.001);
      await insertDriver('rec-i', 4, 'saloon', 55.002);
      const ref = 'TXREC00005';
      const h = await startBookingWorkflow(ref, false, {
        policy: { noShowGraceSeconds: 2, lateAcceptWindowSeconds: 1 },
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-h'), driverId: 'rec-h', decision: 'accept' }],
      });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-i'), driverId: 'rec-i', decision: 'accept' }],
      });
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // From here on: settlement and the no-show rules. A driver on the way past the no-show grace
    // keeps the job; the trip completes and the driver confirms cash.
    'booking-en-route-settled': async () => {
      await insertDriver('rec-k', 4, 'saloon', 55.001);
      const ref = 'TXREC00007';
      const h = await startBookingWorkflow(ref, false, { policy: { noShowGraceSeconds: 1 } });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-k'), driverId: 'rec-k', decision: 'accept' }],
      });
      await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-k', event: 'en_route' }] });
      await new Promise((r) => setTimeout(r, 3000));
      for (const event of ['arrived', 'on_board', 'completed'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-k', event }] });
      await h.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'rec-k', amountPence: 1250, method: 'card', by: 'driver' }],
      });
      await h.result();
      return h.workflowId;
    },
    // The driver waits at the pickup; the passenger never comes.
    'booking-passenger-no-show': async () => {
      await insertDriver('rec-l', 4, 'saloon', 55.001);
      const ref = 'TXREC00008';
      const h = await startBookingWorkflow(ref);
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-l'), driverId: 'rec-l', decision: 'accept' }],
      });
      for (const event of ['arrived', 'no_show'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-l', event }] });
      await h.result();
      return h.workflowId;
    },
    // A driver approved 120 days ago: the trial is over, the weeks since are billed (each as its own
    // child workflow), then the driver is removed. (At 100 days the trial ended 10 days back, and
    // the first full week after it, starting on a Monday, had not always ended yet: on a Thursday
    // just after midnight nothing was due, and the recorder failed.)
    'subscription-billed-cancelled': async () => {
      await insertDriver('rec-m');
      const h = await client.workflow.start('driverSubscriptionWorkflow', {
        workflowId: subscriptionWorkflowId('rec-m'),
        taskQueue,
        args: [{ driverId: 'rec-m', tier: 'local', approvedAt: new Date(Date.now() - 120 * 86_400_000).toISOString() }],
      });
      const deadline = Date.now() + 30_000;
      while ((await h.query(subscriptionStateQuery)).weeksBilled === 0) {
        if (Date.now() > deadline) throw new Error('no week billed');
        await new Promise((r) => setTimeout(r, 200));
      }
      await h.signal(cancelSubscriptionSignal, { reason: 'recorded' });
      await h.result();
      return h.workflowId;
    },
    // An administrator extends a trial twice (90 days at a time, 365 in all), then the driver is removed.
    'subscription-extended': async () => {
      await insertDriver('rec-x');
      const h = await client.workflow.start('driverSubscriptionWorkflow', {
        workflowId: subscriptionWorkflowId('rec-x'),
        taskQueue,
        args: [{ driverId: 'rec-x', tier: 'local', approvedAt: new Date().toISOString() }],
      });
      for (const days of [90, 30])
        await h.executeUpdate(extendTrialUpdate, { args: [{ days, by: 'Rec (admin)', reason: 'recorded' }] });
      await h.signal(cancelSubscriptionSignal, { reason: 'recorded' });
      await h.result();
      return h.workflowId;
    },
    // 0.4.0 (patch collect-invoices): a week owing something (texts to the driver: 25 x 2p) is
    // billed and its collection started as a workflow of its own; then the driver is removed.
    'subscription-collection-started': async () => {
      await sql`insert into drivers (id, name, phone, tier, home_area, approved, vehicle_type, seats)
                values ('rec-cs', 'rec-cs', '+447700900998', 'local', 'record-area', true, 'saloon', 4) on conflict (id) do nothing`;
      const sentAt = Date.now() - 20 * 86_400_000;
      for (let i = 0; i < 25; i++) {
        await sql`insert into outbox (idempotency_key, channel, recipient, body, provider, sent_at)
                  values (${`rec-cs:${i}`}, 'sms', '+447700900998', 'New job', 'outbox', ${new Date(sentAt)}) on conflict do nothing`;
      }
      const h = await client.workflow.start('driverSubscriptionWorkflow', {
        workflowId: subscriptionWorkflowId('rec-cs'),
        taskQueue,
        args: [
          { driverId: 'rec-cs', tier: 'local', approvedAt: new Date(Date.now() - 120 * 86_400_000).toISOString() },
        ],
      });
      const collection = client.workflow.getHandle(
        invoiceCollectionWorkflowId({
          account: 'driver',
          accountId: 'rec-cs',
          weekStart: new Date(weekStartOf(sentAt)).toISOString(),
        }),
      );
      const deadline = Date.now() + 30_000;
      for (;;) {
        const started = await collection.describe().then(
          () => true,
          () => false,
        );
        if (started) break;
        if (Date.now() > deadline) throw new Error('no collection started');
        await new Promise((r) => setTimeout(r, 200));
      }
      await h.signal(cancelSubscriptionSignal, { reason: 'recorded' });
      await h.result();
      await collection.terminate('recorded');
      return h.workflowId;
    },
    // A collection (new in 0.4.0) opened and paid by the provider's webhook before any reminder.
    'invoice-collection-paid': async () => {
      const key = { account: 'driver' as const, accountId: 'rec-cp', weekStart: '2026-10-18T23:00:00.000Z' };
      const h = await client.workflow.start('invoiceCollectionWorkflow', {
        workflowId: invoiceCollectionWorkflowId(key),
        taskQueue,
        args: [{ ...key, totalPence: 2000 }],
      });
      // Paid once the pay link is out (the history then shows the opening before the payment).
      for (
        let i = 0;
        i < 100 &&
        (await sql`select 1 from invoice_collections where account_id = 'rec-cp' and pay_url is not null`).length === 0;
        i++
      )
        await new Promise((r) => setTimeout(r, 100));
      await h.signal(invoicePaymentSignal, {
        eventId: 'evt_recorded',
        outcome: 'succeeded',
        amountPence: 2000,
        providerRef: 'test_cs_recorded',
      });
      await h.result();
      return h.workflowId;
    },
    // A licence running out within a fortnight: reminded at once; then the dates are withdrawn.
    'licence-reminded': async () => {
      await insertDriver('rec-n');
      const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      const h = await client.workflow.start('driverLicenceWorkflow', {
        workflowId: licenceWorkflowId('rec-n'),
        taskQueue,
        args: [{ driverId: 'rec-n', driverLicenceExpires: soon, vehicleLicenceExpires: null }],
      });
      const deadline = Date.now() + 30_000;
      while (
        (await sql`select 1 from outbox where idempotency_key = ${`licence-reminder:rec-n:${soon}`}`).length === 0
      ) {
        if (Date.now() > deadline) throw new Error('no reminder');
        await new Promise((r) => setTimeout(r, 200));
      }
      await h.signal(licencesRenewedSignal, { driverLicenceExpires: null, vehicleLicenceExpires: null });
      await h.result();
      return h.workflowId;
    },
    // 0.4.0 (licence-three-day-warning): a licence running out in two days gets the 3-day warning at
    // once (not the fortnight's reminder too); then a renewal with no dates ends the watch.
    'licence-three-day-warned': async () => {
      await insertDriver('rec-lw');
      const soon = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
      const h = await client.workflow.start('driverLicenceWorkflow', {
        workflowId: licenceWorkflowId('rec-lw'),
        taskQueue,
        args: [{ driverId: 'rec-lw', driverLicenceExpires: null, vehicleLicenceExpires: soon }],
      });
      const deadline = Date.now() + 30_000;
      while (
        (await sql`select 1 from outbox where idempotency_key = ${`licence-warning:rec-lw:${soon}:3`}`).length === 0
      ) {
        if (Date.now() > deadline) throw new Error('no 3-day warning');
        await new Promise((r) => setTimeout(r, 200));
      }
      await h.signal(licencesRenewedSignal, { driverLicenceExpires: null, vehicleLicenceExpires: null });
      await h.result();
      return h.workflowId;
    },
    // Pre-booked: scheduled on a durable timer, dispatched at the lead time, then cancelled.
    'booking-prebooked': async () => {
      await insertDriver('rec-j', 4, 'saloon', 55.001);
      const ref = 'TXREC00006';
      const h = await startBookingWorkflow(ref, false, { pickupInMs: 5000, policy: { dispatchLeadSeconds: 2 } });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await waitForStatus(ref, 'scheduled');
      await offerTo(ref, 'rec-j');
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // Operator bridge: the booking waits for the operator, who offers it to a fleet driver; accepted, then cancelled.
    'booking-operator-fleet': async () => {
      await sql`insert into partner_fleets (id, name, approved) values ('fleet-rec-op', 'Rec Cabs', true) on conflict do nothing`;
      await sql`insert into partners (id, name, kind, live_intake_approved, fleet_id) values ('rec-op', 'Rec Cabs', 'operator', true, 'fleet-rec-op') on conflict do nothing`;
      await insertDriver('rec-fleet', 4, 'saloon', 55.002);
      await sql`update drivers set tier = 'partner', partner_fleet_id = 'fleet-rec-op' where id = 'rec-fleet'`;
      const ref = 'TXREC00009';
      const input = bookingInput(ref, false, { pickupInMs: 3600_000 });
      const h = await client.workflow.start(BOOKING_WORKFLOW_TYPE, {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [
          {
            ...input,
            booking: {
              ...input.booking,
              source: 'operator' as const,
              partnerId: 'rec-op',
              partnerJobRef: 'OP-1',
              operatorId: 'rec-op',
            },
          },
        ],
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await waitForStatus(ref, 'scheduled');
      const state = await h.executeUpdate(assignFleetDriverUpdate, {
        args: [{ operatorId: 'rec-op', driverId: 'rec-fleet', driverName: 'Rec Fleet' }],
      });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: state.offer!.offerId, driverId: 'rec-fleet', decision: 'accept' }],
      });
      await waitForStatus(ref, 'assigned');
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'partner' }] });
      await h.result();
      return h.workflowId;
    },
    // From here on: the first job card in the booking's first workflow task. The nearest driver
    // holds another booking's card, so the page's claim passes them and claims the next, who
    // declines; the third is claimed on their own and accepts; the trip completes and is settled.
    'booking-first-card-one-task': async () => {
      await insertDriver('rec-busy', 4, 'saloon', 55.0005);
      const blocker = await startBookingWorkflow('TXREC00011', false, { policy: { offerTimeoutSeconds: 600 } });
      await blocker.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await offerTo('TXREC00011', 'rec-busy');
      await insertDriver('rec-m', 4, 'saloon', 55.001);
      await insertDriver('rec-n', 4, 'saloon', 55.002);
      const ref = 'TXREC00010';
      const h = await startBookingWorkflow(ref, false, { policy: { offerTimeoutSeconds: 600 } });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-m'), driverId: 'rec-m', decision: 'decline' }],
      });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-n'), driverId: 'rec-n', decision: 'accept' }],
      });
      for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-n', event }] });
      await h.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'rec-n', amountPence: 1000, method: 'cash', by: 'driver' }],
      });
      await h.result();
      await blocker.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await blocker.result();
      return h.workflowId;
    },
    // From here on: a booking dispatched at once writes its record, claims its first driver and
    // sends their card in one local activity. The first driver declines, the second accepts, the
    // passenger cancels.
    'booking-first-card-with-record': async () => {
      await insertDriver('rec-q', 4, 'saloon', 55.001);
      await insertDriver('rec-r', 4, 'saloon', 55.002);
      const ref = 'TXREC00013';
      const h = await client.workflow.start(BOOKING_WORKFLOW_TYPE, {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [bookingInput(ref, false, { agent: true, policy: { offerTimeoutSeconds: 600 } })],
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-q'), driverId: 'rec-q', decision: 'decline' }],
      });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-r'), driverId: 'rec-r', decision: 'accept' }],
      });
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // The same, with a cancel that came with the start: the driver claimed with the record is let go.
    'booking-first-card-with-record-let-go': async () => {
      await insertDriver('rec-s', 4, 'saloon', 55.001);
      const ref = 'TXREC00014';
      const startWorkflowOperation = new WithStartWorkflowOperation(BOOKING_WORKFLOW_TYPE, {
        workflowId: bookingWorkflowId(ref),
        taskQueue,
        args: [bookingInput(ref, false, { agent: true })],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      });
      await client.workflow.executeUpdateWithStart(cancelUpdate, {
        args: [{ reason: 'recorded', by: 'passenger' }],
        startWorkflowOperation,
      });
      const h = await startWorkflowOperation.workflowHandle();
      await h.result();
      return h.workflowId;
    },
    // From here on: suspension (issue 20). The driver with the card is suspended: withdrawn at once,
    // the next asked in the same round, who accepts, sets off and is suspended too: the job is taken
    // off them and offered again; the third driver accepts; the passenger cancels.
    'booking-driver-suspended': async () => {
      await insertDriver('rec-t', 4, 'saloon', 55.001);
      await insertDriver('rec-u', 4, 'saloon', 55.002);
      await insertDriver('rec-v', 4, 'saloon', 55.003);
      const ref = 'TXREC00015';
      const h = await startBookingWorkflow(ref, false, { policy: { offerTimeoutSeconds: 600 } });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await offerTo(ref, 'rec-t');
      await h.signal(driverSuspendedSignal, { driverId: 'rec-t' });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-u'), driverId: 'rec-u', decision: 'accept' }],
      });
      await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-u', event: 'en_route' }] });
      await h.signal(driverSuspendedSignal, { driverId: 'rec-u' });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-v'), driverId: 'rec-v', decision: 'accept' }],
      });
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // A driver suspended with the passenger on board: ops are told, then end the trip with nothing due.
    'booking-suspended-on-board-ended': async () => {
      await insertDriver('rec-w', 4, 'saloon', 55.001);
      const ref = 'TXREC00016';
      const h = await startBookingWorkflow(ref);
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-w'), driverId: 'rec-w', decision: 'accept' }],
      });
      for (const event of ['arrived', 'on_board'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-w', event }] });
      await h.signal(driverSuspendedSignal, { driverId: 'rec-w' });
      await h.executeUpdate(endTripUpdate, { args: [{ reason: 'recorded', settlement: { nothingDue: 'recorded' } }] });
      await h.result();
      return h.workflowId;
    },
    // The suspension workflow: the driver's status written, then each booking they are in told (one
    // running, one already closed).
    'driver-suspension-signalled': async () => {
      await insertDriver('rec-x', 4, 'saloon', 55.001);
      const ref = 'TXREC00017';
      const h = await startBookingWorkflow(ref, false, { policy: { offerTimeoutSeconds: 600 } });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await offerTo(ref, 'rec-x');
      const closed = await startBookingWorkflow('TXREC00018', false, { pickupInMs: 3600_000 });
      await closed.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await closed.terminate('recorded');
      await sql`update bookings set driver_id = 'rec-x', status = 'assigned' where ref = 'TXREC00018'`;
      const [d] = await sql<
        { at: Date }[]
      >`update drivers set status = 'suspended', approved = false, online = false, status_changed_at = now() where id = 'rec-x' returning status_changed_at as at`;
      const s = await client.workflow.start('driverSuspensionWorkflow', {
        workflowId: suspensionWorkflowId('rec-x', d!.at),
        taskQueue,
        args: [{ driverId: 'rec-x' }],
      });
      await s.result();
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return s.workflowId;
    },
    // A partner's job reference: an amendment before its new (held, then booked), a repeat, a cancel.
    'partner-job-held-amend-cancelled': async () => {
      await sql`insert into partners (id, name, kind) values ('rec-partner', 'Rec Partner', 'partner') on conflict do nothing`;
      const input = bookingInput('', false, { pickupInMs: 2 * 3600_000 });
      const booking = (passengers: number) => ({
        ...input,
        booking: { ...input.booking, source: 'partner' as const, partnerId: 'rec-partner', partnerJobRef: 'REC-1' },
        job: { ...input.job, passengers },
      });
      const submit = jobSubmitter('rec-partner', 'REC-1');
      await submit({ action: 'amend', fingerprint: 'amended', booking: booking(2) });
      await submit({
        action: 'new',
        fingerprint: 'original',
        booking: booking(1),
        limit: { day: '2026-11-23', limit: 10 },
      });
      await submit({
        action: 'new',
        fingerprint: 'original',
        booking: booking(1),
        limit: { day: '2026-11-23', limit: 10 },
      });
      await submit({ action: 'cancel', fingerprint: 'cancel', reason: 'recorded' });
      return partnerJobWorkflowId('rec-partner', 'REC-1');
    },
    // The same, booked by local activities (patch local-booking-changes): new, an amendment of the live booking, a cancel.
    'partner-job-local-booked-amended-cancelled': async () => {
      await sql`insert into partners (id, name, kind) values ('rec-partner', 'Rec Partner', 'partner') on conflict do nothing`;
      const input = bookingInput('', false, { pickupInMs: 2 * 3600_000 });
      const booking = (passengers: number) => ({
        ...input,
        booking: { ...input.booking, source: 'partner' as const, partnerId: 'rec-partner', partnerJobRef: 'REC-2' },
        job: { ...input.job, passengers },
      });
      const submit = jobSubmitter('rec-partner', 'REC-2');
      await submit({
        action: 'new',
        fingerprint: 'original',
        booking: booking(1),
        limit: { day: '2026-11-23', limit: 10 },
      });
      await submit({ action: 'amend', fingerprint: 'amended', booking: booking(3) });
      await submit({ action: 'cancel', fingerprint: 'cancel', reason: 'recorded' });
      return partnerJobWorkflowId('rec-partner', 'REC-2');
    },
    // From here on: release 0.2.0 (issue 22). A partner job booked through ordinary activities; its
    // drop-off moved (re-priced, dispatched again); cancelled; sent again as new with other details (rebooked).
    'partner-job-route-amended-rebooked': async () => {
      await sql`insert into partners (id, name, kind) values ('rec-partner', 'Rec Partner', 'partner') on conflict do nothing`;
      const input = bookingInput('', false, { pickupInMs: 2 * 3600_000 });
      const elsewhere = { ...place, label: 'Record Village', lat: 55.05 };
      const booking = (dropoff = place, farePence = 1234) => ({
        ...input,
        booking: {
          ...input.booking,
          source: 'partner' as const,
          partnerId: 'rec-partner',
          partnerJobRef: 'REC-3',
          dropoff,
          dropoffQuery: dropoff.label,
          farePence,
        },
      });
      const submit = jobSubmitter('rec-partner', 'REC-3');
      await submit({
        action: 'new',
        fingerprint: 'original',
        booking: booking(),
        limit: { day: '2026-11-26', limit: 10 },
      });
      await submit({ action: 'amend', fingerprint: 'moved', booking: booking(elsewhere, 2345) });
      await submit({ action: 'cancel', fingerprint: 'cancel', reason: 'recorded' });
      await submit({
        action: 'new',
        fingerprint: 'again',
        booking: booking(place, 1500),
        limit: { day: '2026-11-26', limit: 10 },
      });
      await submit({ action: 'cancel', fingerprint: 'cancel-again', reason: 'recorded' });
      return partnerJobWorkflowId('rec-partner', 'REC-3');
    },
    // A booking whose drop-off moves while a driver holds it: the driver is told and let go, the job
    // dispatched again and taken by another, then cancelled.
    'booking-route-amended-redispatched': async () => {
      await insertDriver('rec-y', 4, 'saloon', 55.001);
      await insertDriver('rec-z', 4, 'saloon', 55.002);
      const ref = 'TXREC00019';
      const h = await startBookingWorkflow(ref, false, { policy: { offerTimeoutSeconds: 600 } });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-y'), driverId: 'rec-y', decision: 'accept' }],
      });
      const elsewhere = { ...place, label: 'Record Village', lat: 55.05 };
      await h.executeUpdate(amendBookingUpdate, {
        args: [
          {
            route: {
              pickupQuery: 'a',
              dropoffQuery: 'Record Village',
              pickup: place,
              dropoff: elsewhere,
              pickupArea: 'record-area',
              distanceM: 9000,
              durationS: 1200,
            },
            fare: { farePence: 2345, fareSource: 'tariff' },
          },
        ],
      });
      // Whoever is asked next (the driver let go is not barred from the changed job) takes it.
      const next = await anyOffer(ref);
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: next.offerId, driverId: next.driverId, decision: 'accept' }],
      });
      await h.executeUpdate(cancelUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // Nobody of ours: the booking is handed to an exchange fleet (a stand-in for its job intake
    // answers), whose status events drive it to completed.
    'booking-exchanged-completed': async () => {
      const fleetAnswers: string[] = [];
      const fleet = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const job = JSON.parse(body) as { jobRef: string; action?: string };
          fleetAnswers.push(job.action ?? 'new');
          const result = {
            jobRef: job.jobRef,
            action: job.action ?? 'new',
            outcome: 'accepted',
            code: 'created',
            message: 'Booked.',
            bookingReference: 'TXREMOTE01',
            bookingStatus: 'dispatching',
          };
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ accepted: 1, rejected: 0, results: [result] }));
        });
      });
      await new Promise<void>((resolve) => fleet.listen(0, '127.0.0.1', resolve));
      await saveExchangeRegistration(sql, config.PARTNER_SECRETS_KEY, {
        id: 'rec-fleet',
        name: 'Rec Fleet',
        baseUrl: `http://127.0.0.1:${(fleet.address() as AddressInfo).port}`,
        credentials: { ourPartnerId: 'rec-us', signingSecret: 'rec-fleet-signing-secret' },
      });
      await saveWebhookSecret(
        sql,
        config.PARTNER_SECRETS_KEY,
        'rec-fleet',
        'whsec_cmVjb3JkZWQtZmxlZXQtd2ViaG9vay1zZWNyZXQ=',
      );
      // No job goes to another operator without its licence on file (docs/records.md, "Sub-contracting").
      await recordOperatorLicence(sql, {
        holder_kind: 'exchange_fleet',
        holder_id: 'rec-fleet',
        authority: 'Recorded Borough Council',
        number: 'PHO-REC',
        kind: 'private_hire',
        expires_on: new Date(Date.now() + 365 * 24 * 3600_000).toISOString().slice(0, 10),
        recorded_by: 'the history recorder',
      });
      const ref = 'TXREC00020';
      const h = await startBookingWorkflow(ref, false, { agent: true });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      for (let i = 0; i < 300 && fleetAnswers.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      if (fleetAnswers.length === 0) throw new Error('the booking was never handed to the exchange fleet');
      const driver = { name: 'Rec Remote', vehicle: 'Skoda Octavia', plate: 'RE11 OTE' };
      let sequence = 1;
      for (const status of ['assigned', 'en_route', 'arrived', 'on_board', 'completed']) {
        sequence += 1;
        await h.signal(exchangeStatusSignal, {
          fleetId: 'rec-fleet',
          eventId: `evt_rec_${sequence}`,
          sequence,
          status,
          driver,
        });
        await waitForStatus(ref, status);
      }
      await h.result();
      fleet.close();
      await sql`update exchange_fleets set approved = false where id = 'rec-fleet'`;
      return h.workflowId;
    },
    // From release 0.3.0 (issue 23): the passenger told at every turn. Booked; the first driver
    // accepts and drops out (driver replaced); the second drives it, is paid, and a receipt follows.
    'booking-dropped-passenger-told-receipt': async () => {
      await insertDriver('rec-t1', 4, 'saloon', 55.001);
      await insertDriver('rec-t2', 4, 'saloon', 55.002);
      const ref = 'TXREC00030';
      const h = await startBookingWorkflow(ref);
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-t1'), driverId: 'rec-t1', decision: 'accept' }],
      });
      await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-t1', event: 'drop' }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-t2'), driverId: 'rec-t2', decision: 'accept' }],
      });
      for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-t2', event }] });
      await h.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'rec-t2', amountPence: 1000, method: 'cash', by: 'driver' }],
      });
      await h.result();
      return h.workflowId;
    },
    // From release 0.3.0 (issue 24): a driver who accepted well ahead is asked to confirm on the
    // day, does not, and is let go at the deadline; the next driver, accepting within the hour, is
    // not asked; then the passenger cancels. (Seconds stand for the hour and half hour.)
    'booking-accepted-ahead-not-confirmed': async () => {
      await insertDriver('rec-ahead', 4, 'saloon', 55.001);
      await insertDriver('rec-late', 4, 'saloon', 55.002);
      const ref = 'TXREC00031';
      const h = await startBookingWorkflow(ref, false, {
        agent: true,
        pickupInMs: 12_000,
        policy: { dispatchLeadSeconds: 60, offerTimeoutSeconds: 30, confirmAskSeconds: 8, confirmDeadlineSeconds: 5 },
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-ahead'), driverId: 'rec-ahead', decision: 'accept' }],
      });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-late'), driverId: 'rec-late', decision: 'accept' }],
      });
      await h.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // From release 0.3.0 (issue 24): nobody within reach; ops hand the booking to a driver they
    // name, who accepts it; the passenger then cancels.
    'booking-offered-to-named-driver': async () => {
      await insertDriver('rec-named', 4, 'saloon', 59.0); // hundreds of km away: never a candidate
      const ref = 'TXREC00032';
      const h = await startBookingWorkflow(ref, false, {
        agent: true,
        pickupInMs: 3_600_000,
        policy: { dispatchLeadSeconds: 7200, offerTimeoutSeconds: 30, retryBaseSeconds: 600 },
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await waitForStatus(ref, 'unassigned');
      const state = await h.executeUpdate(offerToDriverUpdate, {
        args: [{ driverId: 'rec-named', driverName: 'rec-named' }],
      });
      if (state.offer?.driverId !== 'rec-named') throw new Error('the named driver was not offered the job');
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: state.offer.offerId, driverId: 'rec-named', decision: 'accept' }],
      });
      await h.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // From release 0.4.0 (issue 24, patch claim-upcoming): while the booking waits for its dispatch
    // time, a driver takes it from the upcoming-jobs board; asked on the day, they confirm, drive it
    // and are paid. (Seconds stand for the hours.)
    'booking-claimed-from-board': async () => {
      await insertDriver('rec-board', 4, 'saloon', 55.001);
      const ref = 'TXRECBOARD1';
      const h = await startBookingWorkflow(ref, false, {
        agent: true,
        pickupInMs: 20_000,
        policy: { dispatchLeadSeconds: 10, offerTimeoutSeconds: 30, confirmAskSeconds: 15, confirmDeadlineSeconds: 5 },
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      await waitForStatus(ref, 'scheduled');
      await h.executeUpdate(claimUpcomingJobUpdate, { args: [{ driverId: 'rec-board', driverName: 'rec-board' }] });
      for (
        let i = 0;
        i < 200 &&
        (await sql`select 1 from bookings where ref = ${ref} and driver_confirm_asked_at is not null`).length === 0;
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-board', event: 'confirm' }] });
      for (const event of ['en_route', 'arrived', 'on_board', 'completed'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-board', event }] });
      await h.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'rec-board', amountPence: 1234, method: 'cash', by: 'driver' }],
      });
      await h.result();
      return h.workflowId;
    },
    // From release 0.4.0 (issue 25, patch late-accept-window): a driver accepts after pickup plus
    // the no-show grace, is given the late-accept window from accepting (3 seconds stand for the 10
    // minutes), never reports moving and is let go; the next driver accepts; the passenger cancels.
    'booking-late-accept-window': async () => {
      await insertDriver('rec-tardy', 4, 'saloon', 55.001);
      await insertDriver('rec-after', 4, 'saloon', 55.002);
      const ref = 'TXRECLATE01';
      const h = await startBookingWorkflow(ref, false, {
        agent: true,
        policy: { offerTimeoutSeconds: 30, noShowGraceSeconds: 1, lateAcceptWindowSeconds: 3 },
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      const card = await offerTo(ref, 'rec-tardy');
      await new Promise((r) => setTimeout(r, 2000)); // past pickup plus the grace
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: card, driverId: 'rec-tardy', decision: 'accept' }],
      });
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: await offerTo(ref, 'rec-after'), driverId: 'rec-after', decision: 'accept' }],
      });
      await h.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // From release 0.4.0 (issue 25, patch group-offers): two drivers hold the card at once; one opens
    // it, the other leaves it unopened past the unseen cut (2 seconds) and the freed place goes to a
    // third, who accepts: the opened card is withdrawn and its driver told; the passenger cancels.
    'booking-group-offer-won': async () => {
      await insertDriver('rec-grp-a', 4, 'saloon', 55.001);
      await insertDriver('rec-grp-b', 4, 'saloon', 55.002);
      await insertDriver('rec-grp-c', 4, 'saloon', 55.003);
      const ref = 'TXRECGROUP1';
      const h = await startBookingWorkflow(ref, false, {
        agent: true,
        policy: { offerTimeoutSeconds: 30, offerUnseenSeconds: 2, offerGroupSize: 2 },
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      const first = await cardsOutTo(ref, ['rec-grp-a', 'rec-grp-b']);
      await h.signal(offerSeenSignal, { offerId: first[1]!.offerId, driverId: 'rec-grp-b' });
      const refilled = await cardsOutTo(ref, ['rec-grp-b', 'rec-grp-c']);
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: refilled[1]!.offerId, driverId: 'rec-grp-c', decision: 'accept' }],
      });
      await h.executeUpdate(cancelBookingUpdate, { args: [{ reason: 'recorded', by: 'passenger' }] });
      await h.result();
      return h.workflowId;
    },
    // From release 1.0.0 (bookingWorkflowV2): the same group, but the driver who opens the card is
    // read from offers.seen_at at the unseen cut (no signal), and the winner ends the trip with one
    // tap: their payment with the passenger on board completes and settles it.
    'booking-group-card-opened-one-tap': async () => {
      await insertDriver('rec-tap-a', 4, 'saloon', 55.001);
      await insertDriver('rec-tap-b', 4, 'saloon', 55.002);
      await insertDriver('rec-tap-c', 4, 'saloon', 55.003);
      const ref = 'TXRECTAP01';
      const h = await startBookingWorkflow(ref, false, {
        agent: true,
        policy: { offerTimeoutSeconds: 30, offerUnseenSeconds: 2, offerGroupSize: 2 },
      });
      await h.executeUpdate(bookingCreatedUpdate, { args: [{ identity: null }] });
      const first = await cardsOutTo(ref, ['rec-tap-a', 'rec-tap-b']);
      await sql`update offers set seen_at = clock_timestamp() where id = ${first[1]!.offerId}`;
      const refilled = await cardsOutTo(ref, ['rec-tap-b', 'rec-tap-c']);
      await h.executeUpdate(respondToOfferUpdate, {
        args: [{ offerId: refilled[0]!.offerId, driverId: 'rec-tap-b', decision: 'accept' }],
      });
      for (const event of ['en_route', 'arrived', 'on_board'] as const)
        await h.executeUpdate(reportTripUpdate, { args: [{ driverId: 'rec-tap-b', event }] });
      await h.executeUpdate(settleBookingUpdate, {
        args: [{ driverId: 'rec-tap-b', amountPence: 1234, method: 'cash', by: 'driver' }],
      });
      const settled = await h.result();
      if (settled.status !== 'completed') throw new Error(`one tap left ${ref} ${settled.status}`);
      return h.workflowId;
    },
    // Status delivery: a partner booking's events (scheduled, cancelled) to a receiver that answers
    // 503 once, then 200: one retried attempt, both delivered in order, then the idle close.
    'partner-delivery-retried-delivered': async () => {
      let calls = 0;
      const receiver = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(calls++ === 0 ? 503 : 200).end());
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await sql`insert into partners (id, name, kind, callback_url) values ('rec-hooked', 'Rec Hooked', 'partner', ${url}) on conflict do nothing`;
      await issueWebhookSecret(sql, config.PARTNER_SECRETS_KEY, 'rec-hooked');
      const input = bookingInput('', false, { pickupInMs: 2 * 3600_000 });
      const submit = jobSubmitter('rec-hooked', 'HOOK-1');
      const booking = {
        ...input,
        booking: { ...input.booking, source: 'partner' as const, partnerId: 'rec-hooked', partnerJobRef: 'HOOK-1' },
      };
      await submit({ action: 'new', fingerprint: 'original', booking, limit: { day: '2026-11-23', limit: 10 } });
      await submit({ action: 'cancel', fingerprint: 'cancel', reason: 'recorded' });
      const [{ ref } = { ref: '' }] = await sql<
        { ref: string }[]
      >`select booking_ref as ref from partner_events where partner_id = 'rec-hooked' limit 1`;
      const h = await client.workflow.signalWithStart('partnerDeliveryWorkflow', {
        workflowId: deliveryWorkflowId('rec-hooked', ref),
        taskQueue,
        args: [
          {
            partnerId: 'rec-hooked',
            bookingRef: ref,
            policy: { initialRetrySeconds: 1, maxRetrySeconds: 1, giveUpAfterSeconds: 60, idleSeconds: 2 },
          },
        ],
        signal: eventsRecordedSignal,
        signalArgs: [],
      });
      await h.result();
      receiver.close();
      const delivered = await sql<
        { status: string }[]
      >`select status from partner_events where booking_ref = ${ref} and delivery = 'delivered' order by seq`;
      if (delivered.map((e) => e.status).join() !== 'scheduled,cancelled' || calls !== 3)
        throw new Error(`unexpected delivery: ${JSON.stringify(delivered)}, ${calls} calls`);
      return h.workflowId;
    },
    // The ops watcher's first look finds a booking without a driver near pickup and alerts it; then
    // its minute's timer (ended by hand: a real watcher runs for a day before continuing as new).
    'ops-watch-alerted': async () => {
      await sql`
        insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                              pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                              distance_m, duration_s, created_at)
        values ('TXRECOPS01', 'unassigned', 'agent_instant', 'Rec Order', '+447400123456', 'cash', 'a', 'b', ${sql.json(place)},
                ${sql.json(place)}, 'record-area', now() + interval '10 minutes', 1, 'saloon', 1234, 'tariff', 5000, 900,
                now() - interval '1 hour')
        on conflict (ref) do nothing`;
      const h = await client.workflow.start('opsWatchWorkflow', {
        workflowId: 'ops-watch:record',
        taskQueue,
        args: [{}],
      });
      for (let i = 0; i < 100 && (await h.query(opsWatchStateQuery)).alerted < 1; i++)
        await new Promise((r) => setTimeout(r, 100));
      if ((await h.query(opsWatchStateQuery)).alerted < 1) throw new Error('the ops watcher alerted nothing');
      await h.terminate('recorded');
      return h.workflowId;
    },
    // From release 1.0.0 (issue 40): a completed booking's record past its 12 months is erased, with
    // the passenger's personal data, at the retention watch's first look.
    'records-retention-erased': async () => {
      await sql`
        insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                              pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                              distance_m, duration_s, created_at)
        values ('TXRECOLD01', 'completed', 'agent_instant', 'Rec Old', '+447400123456', 'cash', 'a', 'b', ${sql.json(place)},
                ${sql.json(place)}, 'record-area', now() - interval '13 months', 1, 'saloon', 1234, 'tariff', 5000, 900,
                now() - interval '13 months')
        on conflict (ref) do nothing`;
      const h = await client.workflow.start('recordsRetentionWorkflow', {
        workflowId: 'records-retention:record',
        taskQueue,
        args: [{}],
      });
      for (let i = 0; i < 100 && (await h.query(recordsRetentionStateQuery)).erased < 1; i++)
        await new Promise((r) => setTimeout(r, 100));
      if ((await h.query(recordsRetentionStateQuery)).erased < 1) throw new Error('the retention watch erased nothing');
      await h.terminate('recorded');
      return h.workflowId;
    },
    // From release 0.3.0 (issue 24): the drivers' location watch texts an online driver gone quiet.
    'location-watch-warned': async () => {
      await insertDriver('rec-quiet');
      await sql`update drivers set location_at = now() - interval '6 minutes', location_warned_for = null, location_warned_at = null where id = 'rec-quiet'`;
      const h = await client.workflow.start('driverLocationWatchWorkflow', {
        workflowId: 'location-watch:record',
        taskQueue,
        args: [{}],
      });
      for (let i = 0; i < 100 && (await h.query(locationWatchStateQuery)).warned < 1; i++)
        await new Promise((r) => setTimeout(r, 100));
      if ((await h.query(locationWatchStateQuery)).warned < 1) throw new Error('the location watch warned nobody');
      await h.terminate('recorded');
      return h.workflowId;
    },
  };
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, run] of Object.entries(scenarios)) {
    const file = path.join(outDir, `${name}.json`);
    if (fs.existsSync(file)) {
      console.log(`kept ${name} (already recorded)`);
      continue;
    }
    // Each scenario sees only the drivers it creates.
    await sql`update drivers set online = false`;
    const workflowId = await run();
    // The CLI's JSON export is the format replay tools (and `temporal workflow show`) share.
    const json = execFileSync(
      temporalCliPath(),
      ['workflow', 'show', '--address', temporal.address, '--workflow-id', workflowId, '--output', 'json'],
      { encoding: 'utf8' },
    );
    fs.writeFileSync(file, json);
    console.log(`recorded ${name}`);
  }
});
await workerConnection.close();
await connection.close();
await sql.end();
await temporal.stop();
await pg.stop();
fs.rmSync(tmp, { recursive: true, force: true });
