// The booking's state as a small model: what the bookingState query answers, moved only by the
// named transitions below. Each is pure (old state and facts in, new state out, the time passed in),
// so it is unit-tested without a workflow (test/unit/workflows/state.test.ts). The rules that read
// the state are the booking's own: src/model/bookings.ts.
import { initialStatus, type AmendInput, type BookingWorkflowInput } from './definitions.js';
import {
  NO_EXCHANGE,
  isSuspended,
  openOffers,
  type AmendedFare,
  type AmendedRoute,
  type BookingState,
  type BookingStatus,
  type CandidateOutcome,
  type CurrentOffer,
  type ExchangeState,
  type JobSpec,
  type PaymentRecord,
  type Tier,
  type TierSummary,
} from '../../src/model/bookings.js';

export type Candidate = { driverId: string; driverName: string; distanceMeters: number | null };

/** The decision log's reason for a card withdrawn because another driver of the group accepted first. */
export const TAKEN_BY_ANOTHER = 'taken_by_another_driver';

export function opened(input: BookingWorkflowInput, nowMs: number): BookingState {
  const b = input.booking;
  return {
    ref: b.ref,
    identity: b.identity ?? null,
    status: initialStatus(input, nowMs),
    job: { ...input.job },
    round: 0,
    driverId: null,
    offer: null,
    candidates: [],
    droppedDriverIds: [],
    cancelReason: null,
    fare: { farePence: b.farePence, fareSource: b.fareSource },
    pickup: b.pickup,
    dropoff: b.dropoff,
  };
}

export const statusSet = (s: BookingState, status: BookingStatus): BookingState => ({ ...s, status });
export const roundBegun = (s: BookingState): BookingState => ({ ...s, round: s.round + 1 });
export const tierCounted = (s: BookingState, t: TierSummary): BookingState => ({
  ...s,
  tiers: [...(s.tiers ?? []), t],
});

/** The decision log: every driver considered, and what became of them. */
export function recorded(
  s: BookingState,
  e: { tier: Tier; candidate: Candidate; outcome: CandidateOutcome; reason?: string | null; at: string },
): BookingState {
  const line = { round: s.round, tier: e.tier, ...e.candidate, outcome: e.outcome, reason: e.reason ?? null, at: e.at };
  return { ...s, candidates: [...s.candidates, line] };
}

/** The cards out now (`offer` is the first, so "a card is out" reads the same for a group of one). */
export const offersOut = (s: BookingState, offers: CurrentOffer[]): BookingState => ({
  ...s,
  group: offers.length > 0 ? offers : null,
  offer: offers[0] ?? null,
});

/** A group's losing cards, still on show (after the winner's assignment) until their drivers are told. */
export const stillOut = (s: BookingState, offers: CurrentOffer[]): BookingState => ({
  ...s,
  group: offers.length > 0 ? offers : null,
});

const offerChanged = (s: BookingState, offerId: string, change: Partial<CurrentOffer>): BookingState =>
  offersOut(
    s,
    openOffers(s).map((o) => (o.offerId === offerId ? { ...o, ...change } : o)),
  );

/** The driver answered their card: recorded on it at once, so a repeated answer hears the same. */
export const answered = (s: BookingState, offerId: string, response: 'accepted' | 'declined') =>
  offerChanged(s, offerId, { response });

/** The driver opened the card: it is given the full window. */
export const seen = (s: BookingState, offerId: string) => offerChanged(s, offerId, { seen: true });

export const assigned = (s: BookingState, driverId: string): BookingState => ({
  ...offersOut(s, []),
  driverId,
  status: 'assigned',
});

/** The driver no longer has the job (dropped it, no-show, suspended, no longer fits): dispatch again. */
export function released(
  s: BookingState,
  d: { driverId: string; outcome: CandidateOutcome; reason: string; at: string },
): BookingState {
  const c = { driverId: d.driverId, driverName: '', distanceMeters: null };
  const logged = recorded(s, { tier: 'local', candidate: c, outcome: d.outcome, reason: d.reason, at: d.at });
  return { ...logged, driverId: null, status: 'dispatching' };
}

/** A driver who gave the job back (or was let go for not turning up) is never offered it again. */
export const droppedBy = (s: BookingState, driverId: string): BookingState => ({
  ...s,
  droppedDriverIds: [...s.droppedDriverIds, driverId],
});

export const suspended = (s: BookingState, driverId: string): BookingState =>
  isSuspended(s, driverId) ? s : { ...s, suspendedDriverIds: [...(s.suspendedDriverIds ?? []), driverId] };

export const confirmedBy = (s: BookingState, driverId: string): BookingState => ({ ...s, confirmedDriverId: driverId });
export const endedByOps = (s: BookingState, reason: string): BookingState => ({ ...s, ended: { by: 'ops', reason } });
export const paid = (s: BookingState, payment: PaymentRecord | null): BookingState => ({ ...s, payment });

export const cancelled = (s: BookingState, reason: string | null): BookingState => ({
  ...s,
  offer: null,
  cancelReason: reason,
  status: 'cancelled',
});

/** A batch of amendments folded into the job, with the last route and fare any of them carries. */
export function amendmentsFolded(
  job: JobSpec,
  batch: AmendInput[],
): { job: JobSpec; route?: AmendedRoute | undefined; fare?: AmendedFare | undefined } {
  let next = { ...job };
  let route: AmendedRoute | undefined;
  let fare: AmendedFare | undefined;
  for (const { route: r, fare: f, ...fields } of batch) {
    next = { ...next, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
    route = r ?? route;
    fare = f ?? fare;
  }
  return { job: next, route, fare };
}

export const amended = (s: BookingState, job: JobSpec): BookingState => ({ ...s, job });

export const rerouted = (s: BookingState, route?: AmendedRoute, fare?: AmendedFare): BookingState => ({
  ...s,
  ...(route ? { pickup: route.pickup, dropoff: route.dropoff } : {}),
  ...(fare ? { fare } : {}),
});

export const exchangeChanged = (s: BookingState, change: Partial<ExchangeState>): BookingState => ({
  ...s,
  exchange: { ...(s.exchange ?? NO_EXCHANGE), ...change },
});
