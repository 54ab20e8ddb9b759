// Exchange fleets (Cab Exchange, docs/exchange.md): when every tier of a round has nobody left to
// ask, the booking is handed to an approved partner fleet that runs this same API. It then waits for
// that fleet's status events (the booking-status hook signals them) instead of a driver's answer,
// moves our booking with them, sends the fleet our amendments, and tells it when we cancel. A fleet
// that gives the job back (cancels on its side) is never asked again; the cascade starts afresh.
import { log, patched, proxyActivities, setHandler, condition } from '@temporalio/workflow';
import type { Activities } from '../../../activities/index.js';
import { db } from './activities.js';
import {
  exchangeStatusSignal,
  type BookingStatus,
  type ExchangeSendResult,
  type ExchangeState,
} from './definitions.js';
import type { BookingRun, Candidate } from './run.js';

/** Bookings started on code before the exchange never hand a job to a fleet (docs/versioning.md). */
export const EXCHANGE_PATCH = 'exchange-fleets';

/** Past pickup, a fleet that has found no driver has this long before the job is taken back. */
const UNASSIGNED_GRACE_MS = 60 * 60_000;

/** Handing a job over: a fleet that cannot take it within minutes is passed over. */
const handOver = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '3 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '20 seconds' },
});
/** Amendments and cancels of a job a fleet holds: retried for an hour. */
const followUps = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '1 hour',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute' },
});

/** The fleet's statuses that are steps of a trip: ours takes the same name. */
const TRIP_STATUSES: readonly string[] = ['assigned', 'en_route', 'arrived', 'on_board', 'completed', 'no_show'];
/** Our statuses in which the fleet's driver holds the job. */
const WITH_DRIVER: readonly BookingStatus[] = ['assigned', 'en_route', 'arrived', 'on_board'];

/** The fleet's events, as the hook signals them: only the holding fleet's, only newer ones. */
export function installExchangeHandlers(run: BookingRun): void {
  setHandler(exchangeStatusSignal, (e) => {
    const x = run.state.exchange;
    if (!x || run.closed() || x.fleetId !== e.fleetId || e.sequence <= x.sequence) return;
    x.sequence = e.sequence;
    x.remoteStatus = e.status;
    x.driver = e.driver;
    x.pending = true;
  });
}

/** A fleet holds this booking's job: the cascade follows it instead of asking drivers. */
export function heldByExchangeFleet(run: BookingRun): boolean {
  return Boolean(run.state.exchange?.fleetId);
}

const fleetCandidate = (x: ExchangeState): Candidate => ({
  driverId: `exchange:${x.fleetId}`,
  driverName: x.fleetName ?? x.fleetId ?? '',
  distanceMeters: null,
});

function letGo(x: ExchangeState): void {
  Object.assign(x, {
    fleetId: null,
    fleetName: null,
    sequence: 0,
    remoteStatus: null,
    driver: null,
    pending: false,
    sent: null,
  });
}

/** What the fleet was sent: the job, and the route and fare an amendment may change. */
const jobSent = (run: BookingRun): string => {
  const j = run.state.job;
  return JSON.stringify([
    j.pickupAt,
    j.passengers,
    j.vehicleType,
    j.wheelchair,
    j.notes,
    run.state.pickup?.label ?? null,
    run.state.dropoff?.label ?? null,
    run.state.fare ?? null,
  ]);
};

/**
 * Every tier exhausted: the next approved fleet not yet asked gets the job. 'exhausted' when none
 * is left (or none takes it); otherwise the job is followed at the fleet.
 */
export async function handToExchangeFleet(run: BookingRun): Promise<'exhausted' | 'interrupted' | 'assigned'> {
  if (!patched(EXCHANGE_PATCH)) return 'exhausted';
  const x = (run.state.exchange ??= {
    fleetId: null,
    fleetName: null,
    tried: [],
    sequence: 0,
    remoteStatus: null,
    driver: null,
    pending: false,
    sent: null,
  });
  for (;;) {
    if (run.interrupted()) return 'interrupted';
    const next = await db.nextExchangeFleet({ ref: run.ref, tried: x.tried });
    if (!next) return 'exhausted';
    x.tried.push(next.fleetId);
    // Held before it is sent: the fleet's first events can arrive before its answer does.
    Object.assign(x, {
      fleetId: next.fleetId,
      fleetName: next.name,
      sequence: 0,
      remoteStatus: null,
      driver: null,
      pending: false,
      sent: jobSent(run),
    });
    const c = fleetCandidate(x);
    run.record('partner', c, 'offered');
    let sent: ExchangeSendResult;
    try {
      sent = await handOver.sendExchangeJob({ ref: run.ref, fleetId: next.fleetId, action: 'new' });
    } catch {
      // Unreachable: passed over. It may have booked the job before we gave up, so it is told to cancel (best effort).
      await db.endExchangeJob({ ref: run.ref, fleetId: next.fleetId, state: 'failed', reason: 'unreachable' });
      run.record('partner', c, 'skipped', 'fleet_unreachable');
      letGo(x);
      await handOver.sendExchangeJob({ ref: run.ref, fleetId: next.fleetId, action: 'cancel' }).catch(() => undefined);
      continue;
    }
    if (sent.outcome === 'rejected') {
      run.record('partner', c, 'declined', sent.code);
      letGo(x);
      continue;
    }
    await run.setStatus('offered');
    return followExchangeFleet(run);
  }
}

/**
 * The job is with a fleet: wait for its next event, an amendment to send it, or anything the main
 * loop must deal with (a cancel, an amendment to apply first). Returns to the main loop after each
 * step, so whatever arrived meanwhile is dealt with in the usual order.
 */
export async function followExchangeFleet(run: BookingRun): Promise<'exhausted' | 'interrupted' | 'assigned'> {
  const x = run.state.exchange!;
  // Back from a wait that set our status aside (a pickup amended beyond the dispatch lead waited as
  // scheduled): the fleet's last word stands again.
  if (run.state.status !== 'offered' && !WITH_DRIVER.includes(run.state.status)) {
    const last = x.remoteStatus ?? '';
    await run.setStatus(WITH_DRIVER.includes(last as BookingStatus) ? (last as BookingStatus) : 'offered');
  }
  const withDriver = () => WITH_DRIVER.includes(run.state.status);
  const jobChanged = () => x.sent !== jobSent(run);
  const wake = () => x.pending || run.interrupted() || jobChanged();
  let woke = true;
  if (withDriver()) await condition(wake);
  // Nobody found at the fleet by pickup and a grace after it: taken back.
  else
    woke = await condition(wake, Math.max(1000, Date.parse(run.state.job.pickupAt) + UNASSIGNED_GRACE_MS - Date.now()));
  if (!woke) {
    const fleetId = x.fleetId!;
    run.record('partner', fleetCandidate(x), 'timed_out', 'no_driver_at_fleet');
    letGo(x);
    await followUps.sendExchangeJob({ ref: run.ref, fleetId, action: 'cancel' }).catch(() => undefined);
    await db.endExchangeJob({ ref: run.ref, fleetId, state: 'released', reason: 'no driver by pickup' });
    return 'exhausted';
  }
  // A cancel goes through the main loop (cancelExchangeJob tells the fleet); amendments are applied there first.
  if (run.interrupted()) return 'interrupted';
  if (jobChanged()) {
    await sendAmendmentToExchangeFleet(run);
    return 'interrupted';
  }
  x.pending = false;
  return applyFleetStatus(run, x);
}

/**
 * Our booking was amended (the main loop calls this once the amendment is written): the fleet
 * holding the job is sent it at once, whatever our booking waits for next. Nothing when no fleet
 * holds the job, or it already has this version.
 */
export async function sendAmendmentToExchangeFleet(run: BookingRun): Promise<void> {
  const x = run.state.exchange;
  if (!x?.fleetId || x.sent === jobSent(run)) return;
  x.sent = jobSent(run);
  try {
    const r = await followUps.sendExchangeJob({ ref: run.ref, fleetId: x.fleetId, action: 'amend' });
    if (r.outcome === 'rejected')
      log.warn('exchange fleet refused an amendment', { ref: run.ref, fleetId: x.fleetId, code: r.code });
  } catch {
    log.warn('exchange fleet unreachable for an amendment', { ref: run.ref, fleetId: x.fleetId });
  }
}

/** The fleet's latest status, applied to our booking. */
async function applyFleetStatus(run: BookingRun, x: ExchangeState): Promise<'interrupted' | 'assigned'> {
  const fleetId = x.fleetId!;
  const c = fleetCandidate(x);
  const remote = x.remoteStatus ?? '';
  if (remote === 'cancelled') {
    // The fleet gave the job back: the cascade starts afresh, without it.
    run.record('partner', c, 'dropped', 'fleet_cancelled');
    letGo(x);
    await db.endExchangeJob({ ref: run.ref, fleetId, state: 'released', reason: 'cancelled by the fleet' });
    await run.setStatus('dispatching');
    return 'interrupted';
  }
  const wasWithDriver = WITH_DRIVER.includes(run.state.status);
  // A trip step is ours too; anything else (its driver gave the job back, it is looking again) is
  // "offered" to the fleet once more, and leaves us as we were before it found a driver.
  const status: BookingStatus | null = TRIP_STATUSES.includes(remote)
    ? (remote as BookingStatus)
    : wasWithDriver
      ? 'offered'
      : null;
  await db.applyExchangeStatus({
    ref: run.ref,
    fleetId,
    sequence: x.sequence,
    remoteStatus: remote,
    status,
    driver: status && TRIP_STATUSES.includes(status) ? x.driver : null,
  });
  if (status && status !== run.state.status) {
    if (status === 'assigned' || (!wasWithDriver && TRIP_STATUSES.includes(status)))
      run.record('partner', { ...c, driverName: x.driver?.name ?? c.driverName }, 'accepted');
    if (wasWithDriver && status === 'offered') run.record('partner', c, 'dropped', 'fleet_driver_dropped');
    run.markStatus(status);
  }
  return status === 'assigned' ? 'assigned' : 'interrupted';
}

/** Our booking is cancelled: the fleet holding its job is told (after our record, so nobody waits on it). */
export async function cancelExchangeJob(run: BookingRun): Promise<void> {
  const x = run.state.exchange;
  if (!x?.fleetId) return;
  const fleetId = x.fleetId;
  letGo(x);
  try {
    await followUps.sendExchangeJob({ ref: run.ref, fleetId, action: 'cancel' });
  } catch {
    log.warn('exchange fleet unreachable for a cancel', { ref: run.ref, fleetId });
  }
  await db.endExchangeJob({ ref: run.ref, fleetId, state: 'cancelled' });
}
