// Following the trip once a driver holds the job: confirmed on the day if accepted well ahead, a
// no-show let go, each report a step; a completed trip then waits for its settlement.
import { acts, db } from '../activities.js';
import type { DriverDroppedInput } from './definitions.js';
import * as model from '../../src/model/bookings.js';
import type { BookingRun, Next } from './run.js';
import * as S from '../../src/model/booking-state.js';

/** How long a completed trip waits for the driver (or a provider) to confirm what was paid. */
const SETTLEMENT_WINDOW_MS = 7 * 24 * 60 * 60_000;

/** The passenger hears the news by the channel they gave, unless a partner's customer (the partner tells them). */
export async function tell(run: BookingRun, news: model.PassengerNews): Promise<void> {
  if (model.passengerHearsFromUs(run.input.booking.source)) await acts.tellPassenger({ ref: run.ref, news });
}

/** The driver holding the job lets it go (dropped, no-show, suspended, released, not confirmed). */
export async function releaseDriver(run: BookingRun, d: DriverDroppedInput): Promise<void> {
  if (d.driverId !== run.state.driverId) return;
  await acts.releaseDriver({ ref: run.ref, driverId: d.driverId, reason: d.reason });
  run.move((s) => S.droppedBy(s, d.driverId));
  const withdrawn = d.reason === 'suspended' || d.reason === 'released';
  run.released(d.driverId, withdrawn ? 'withdrawn' : 'dropped', d.reason);
  await tell(run, { kind: 'driver_replaced', driverId: d.driverId });
}

export async function followTrip(run: BookingRun): Promise<Next> {
  const { policy, assignedAtMs } = run;
  const driverId = run.state.driverId!;
  if (run.state.status === 'assigned' && model.acceptedWellAhead(policy, run.state.job.pickupAt, assignedAtMs)) {
    if ((await confirmOnTheDay(run, driverId)) === 'again') return 'again';
  }
  if (run.state.status === 'assigned' && !run.inbox.peek('progress')) {
    const noShowAt = model.noShowTime(policy, run.state.job.pickupAt, assignedAtMs);
    if ((await run.inbox.waitFor(['progress'], Math.max(1000, noShowAt - Date.now()))) === 'timeout') {
      await releaseDriver(run, { driverId, reason: 'no_show' });
      return 'again';
    }
  } else if (!run.inbox.peek('progress')) {
    await run.inbox.waitFor(['progress']);
  }
  const report = run.inbox.take('progress');
  // Reports arriving as signals are checked here; the reportTrip update's validator already refuses them.
  if (!report || !model.isNextTripStep(run.state.status, report.msg.progress)) return 'again';
  const p = report.msg.progress;
  await run.setStatus(p);
  return p === 'completed' || p === 'no_show' ? 'closed' : 'again';
}

/**
 * A job accepted well ahead: the driver is asked to confirm before pickup (unless they have, or
 * started) and, with no answer by the deadline, let go so another is found in time. 'again' when
 * something else came first or the driver was let go.
 */
async function confirmOnTheDay(run: BookingRun, driverId: string): Promise<Next | 'proceed'> {
  const settled = () => run.state.confirmedDriverId === driverId || run.inbox.peek('progress') !== undefined;
  const wait = async (ms: number) => {
    const woken = settled() ? 'message' : await run.inbox.waitFor(['confirmed', 'progress'], ms);
    run.inbox.takeAll('confirmed');
    return woken === 'timeout' ? 'timeout' : settled() ? 'proceed' : 'again';
  };
  if (settled()) return 'proceed';
  const { askAt, deadline } = model.confirmTimes(run.policy, run.state.job.pickupAt);
  if (Date.now() < askAt) {
    const woken = await wait(askAt - Date.now());
    if (woken !== 'timeout') return woken;
  }
  if (run.confirmAskedOf !== driverId) {
    run.confirmAskedOf = driverId;
    await acts.askDriverToConfirm({ ref: run.ref, driverId, deadline: new Date(deadline).toISOString() });
  }
  const woken = await wait(Math.max(1000, deadline - Date.now()));
  if (woken !== 'timeout') return woken;
  await releaseDriver(run, { driverId, reason: 'not_confirmed' });
  return 'again';
}

/**
 * Settling is a step of the booking: the driver confirms what was received (or a provider's
 * webhook does, or ops ending the trip), and it is written once as an immutable payment record.
 */
export async function settle(run: BookingRun): Promise<void> {
  run.move((s) => S.paid(s, null));
  const until = Date.now() + SETTLEMENT_WINDOW_MS;
  while (!run.inbox.peek('settle')) {
    // The trip is over: nothing left for a drop, say, that came with its last report.
    for (const kind of ['cancel', 'amend', 'drop', 'opsPick', 'boardClaim'] as const) run.inbox.takeAll(kind);
    if ((await run.inbox.waitFor(['settle'], Math.max(1, until - Date.now()))) === 'timeout') return;
  }
  const settlement = run.inbox.take('settle')!.msg.settlement;
  // A row in Postgres, written in the settlement's own workflow task: the driver's tap is answered there.
  const payment = await db.recordPayment({ ref: run.ref, driverId: run.state.driverId, settlement });
  run.move((s) => S.paid(s, payment));
  await tell(run, { kind: 'receipt' });
  // Ended by ops: the passenger and the driver hear how it was settled.
  if (run.state.ended) await acts.sendTripEndedByOps({ ref: run.ref, driverId: run.state.driverId });
}
