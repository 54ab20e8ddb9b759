// Exchange fleets (docs/exchange.md): when every tier has nobody left to ask, the job goes to an
// approved partner fleet running this API; the booking follows its status events (signalled by the
// booking-status hook) and sends it our amendments and cancel. A fleet that gives the job back is
// never asked again.
import { log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { db } from '../activities.js';
import { exchangeStatusSignal } from './definitions.js';
import * as model from '../../src/model/bookings.js';
import type { BookingRun } from './run.js';
import * as S from '../../src/model/booking-state.js';

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

type Result = 'exhausted' | 'interrupted' | 'assigned';

/** The fleet's events, as the hook signals them: only the holding fleet's, only newer ones. */
export function installExchangeHandlers(run: BookingRun): void {
  setHandler(exchangeStatusSignal, (e) => {
    const x = run.state.exchange;
    if (!x || run.closed() || x.fleetId !== e.fleetId || e.sequence <= x.sequence) return;
    const event = { sequence: e.sequence, remoteStatus: e.status, driver: e.driver, pending: true };
    run.move((s) => S.exchangeChanged(s, event));
    run.inbox.post({ kind: 'exchange' });
  });
}

export const heldByExchangeFleet = (run: BookingRun): boolean => Boolean(run.state.exchange?.fleetId);

const letGo = (run: BookingRun) =>
  run.move((s) => S.exchangeChanged(s, { ...model.NO_EXCHANGE, tried: s.exchange!.tried }));

/** The job taken back from the fleet holding it: it is told to cancel (best effort), then its job is ended. */
async function takeBack(run: BookingRun, fleetId: string, end: { state: 'released' | 'cancelled'; reason?: string }) {
  letGo(run);
  try {
    await followUps.sendExchangeJob({ ref: run.ref, fleetId, action: 'cancel' });
  } catch {
    log.warn('exchange fleet unreachable for a cancel', { ref: run.ref, fleetId });
  }
  await db.endExchangeJob({ ref: run.ref, fleetId, ...end });
}

/** Every tier exhausted: the next approved fleet not yet asked gets the job ('exhausted': none took it). */
export async function handToExchangeFleet(run: BookingRun): Promise<Result> {
  run.move((s) => S.exchangeChanged(s, {}));
  // Fleets passed over for their licence this time: asked again next round (a licence may be renewed).
  const unlicensed: string[] = [];
  for (;;) {
    if (run.inbox.interrupted()) return 'interrupted';
    const tried = run.state.exchange!.tried;
    const next = await db.nextExchangeFleet({ ref: run.ref, tried: [...tried, ...unlicensed] });
    if (!next) return 'exhausted';
    const { fleetId } = next;
    if (next.refusal) {
      // Its operator licence is not on file, not of the kind, or lapsed by pickup: handing the job on
      // would be an unlawful sub-contract (docs/records.md, "Sub-contracting"). Passed over, and said why.
      unlicensed.push(fleetId);
      run.record(
        'partner',
        model.fleetCandidate({ ...model.NO_EXCHANGE, fleetId, fleetName: next.name }),
        'skipped',
        next.refusal,
      );
      continue;
    }
    // Held before it is sent: the fleet's first events can arrive before its answer does.
    const held = { fleetId, fleetName: next.name, tried: [...tried, fleetId], sent: model.exchangeJobSent(run.state) };
    run.move((s) => S.exchangeChanged(s, { ...model.NO_EXCHANGE, ...held }));
    const c = model.fleetCandidate(run.state.exchange!);
    run.record('partner', c, 'offered');
    const sent = await handOver.sendExchangeJob({ ref: run.ref, fleetId, action: 'new' }).catch(() => null);
    if (sent?.outcome === 'accepted') {
      await run.setStatus('offered');
      return followExchangeFleet(run);
    }
    if (sent) {
      run.record('partner', c, 'declined', sent.code);
      letGo(run);
      continue;
    }
    // Unreachable: passed over. It may have booked the job before we gave up, so it is told to cancel (best effort).
    await db.endExchangeJob({ ref: run.ref, fleetId, state: 'failed', reason: 'unreachable' });
    run.record('partner', c, 'skipped', 'fleet_unreachable');
    letGo(run);
    await handOver.sendExchangeJob({ ref: run.ref, fleetId, action: 'cancel' }).catch(() => undefined);
  }
}

/** The job is with a fleet: one step per event, back to the main loop; nobody by pickup and a grace: taken back. */
export async function followExchangeFleet(run: BookingRun): Promise<Result> {
  const withDriver = () => model.EXCHANGE_WITH_DRIVER.includes(run.state.status);
  // Back from a wait that set our status aside: the fleet's last word stands again.
  if (run.state.status !== 'offered' && !withDriver())
    await run.setStatus(model.statusHeldByFleet(run.state.exchange!));
  const takenBackAt = Date.parse(run.state.job.pickupAt) + model.UNASSIGNED_GRACE_MS;
  const ready = run.state.exchange!.pending || run.state.exchange!.sent !== model.exchangeJobSent(run.state);
  const until = withDriver() ? undefined : Math.max(1000, takenBackAt - Date.now());
  const woken = ready ? 'message' : await run.inbox.waitFor(['exchange'], until);
  run.inbox.takeAll('exchange');
  const x = run.state.exchange!;
  if (woken === 'timeout' && !x.pending) {
    run.record('partner', model.fleetCandidate(x), 'timed_out', 'no_driver_at_fleet');
    await takeBack(run, x.fleetId!, { state: 'released', reason: 'no driver by pickup' });
    return 'exhausted';
  }
  // A cancel goes through the main loop (cancelExchangeJob tells the fleet); amendments are applied there first.
  if (run.inbox.interrupted()) return 'interrupted';
  if (x.sent !== model.exchangeJobSent(run.state)) {
    await sendAmendmentToExchangeFleet(run);
    return 'interrupted';
  }
  run.move((s) => S.exchangeChanged(s, { pending: false }));
  return applyFleetStatus(run, x);
}

/** Our booking was amended: the fleet holding the job is sent it at once (nothing if it has this version). */
export async function sendAmendmentToExchangeFleet(run: BookingRun): Promise<void> {
  const x = run.state.exchange;
  if (!x?.fleetId || x.sent === model.exchangeJobSent(run.state)) return;
  run.move((s) => S.exchangeChanged(s, { sent: model.exchangeJobSent(s) }));
  const at = { ref: run.ref, fleetId: x.fleetId };
  try {
    const r = await followUps.sendExchangeJob({ ...at, action: 'amend' });
    if (r.outcome === 'rejected') log.warn('exchange fleet refused an amendment', { ...at, code: r.code });
  } catch {
    log.warn('exchange fleet unreachable for an amendment', at);
  }
}

async function applyFleetStatus(run: BookingRun, x: model.ExchangeState): Promise<'interrupted' | 'assigned'> {
  const fleetId = x.fleetId!;
  const c = model.fleetCandidate(x);
  const remote = x.remoteStatus ?? '';
  if (remote === 'cancelled') {
    // The fleet gave the job back: the cascade starts afresh, without it.
    run.record('partner', c, 'dropped', 'fleet_cancelled');
    letGo(run);
    await db.endExchangeJob({ ref: run.ref, fleetId, state: 'released', reason: 'cancelled by the fleet' });
    await run.setStatus('dispatching');
    return 'interrupted';
  }
  const wasWithDriver = model.EXCHANGE_WITH_DRIVER.includes(run.state.status);
  const { status, trip } = model.statusFromFleet(remote, run.state.status);
  const driver = trip ? x.driver : null;
  await db.applyExchangeStatus({ ref: run.ref, fleetId, sequence: x.sequence, remoteStatus: remote, status, driver });
  if (status && status !== run.state.status) {
    if (status === 'assigned' || (!wasWithDriver && trip))
      run.record('partner', { ...c, driverName: x.driver?.name ?? c.driverName }, 'accepted');
    if (wasWithDriver && status === 'offered') run.record('partner', c, 'dropped', 'fleet_driver_dropped');
    run.markStatus(status);
  }
  return status === 'assigned' ? 'assigned' : 'interrupted';
}

/** Our booking is cancelled: the fleet holding its job is told (after our record, so nobody waits on it). */
export async function cancelExchangeJob(run: BookingRun): Promise<void> {
  const fleetId = run.state.exchange?.fleetId;
  if (fleetId) await takeBack(run, fleetId, { state: 'cancelled' });
}
