// The booking's state: what the bookingState query answers, moved by the booking workflow
// (workflows/bookings/) only through the pure transitions below (unit-tested without a workflow);
// the rules that read it are ./bookings.ts.
import * as model from './bookings.js';

type State = model.BookingState;
export type Candidate = { driverId: string; driverName: string; distanceMeters: number | null };

/** The decision log's reason for a card withdrawn because another driver of the group accepted first. */
export const TAKEN_BY_ANOTHER = 'taken_by_another_driver';

export function opened(input: model.BookingOpening, nowMs: number): State {
  const b = input.booking;
  return {
    ref: b.ref,
    identity: b.identity ?? null,
    status: model.initialStatus(input, nowMs),
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

export const statusSet = (s: State, status: model.BookingStatus): State => ({ ...s, status });
export const roundBegun = (s: State): State => ({ ...s, round: s.round + 1 });
export const tierCounted = (s: State, t: model.TierSummary): State => ({ ...s, tiers: [...(s.tiers ?? []), t] });

/** The decision log: every driver considered, and what became of them. */
export function recorded(
  s: State,
  e: { tier: model.Tier; candidate: Candidate; outcome: model.CandidateOutcome; reason?: string | null; at: string },
): State {
  const line = { round: s.round, tier: e.tier, ...e.candidate, outcome: e.outcome, reason: e.reason ?? null, at: e.at };
  return { ...s, candidates: [...s.candidates, line] };
}

/** The cards out now (`offer` is the first, so "a card is out" reads the same for a group of one). */
export const offersOut = (s: State, offers: model.CurrentOffer[]): State => ({
  ...s,
  group: offers.length > 0 ? offers : null,
  offer: offers[0] ?? null,
});

const offerChanged = (s: State, offerId: string, change: Partial<model.CurrentOffer>): State =>
  offersOut(
    s,
    model.openOffers(s).map((o) => (o.offerId === offerId ? { ...o, ...change } : o)),
  );

/** The driver answered their card: recorded on it at once, so a repeated answer hears the same. */
export const answered = (s: State, offerId: string, response: 'accepted' | 'declined') =>
  offerChanged(s, offerId, { response });

/** The driver opened the card: it is given the full window. */
export const seen = (s: State, offerId: string) => offerChanged(s, offerId, { seen: true });

export const assigned = (s: State, driverId: string): State => ({ ...offersOut(s, []), driverId, status: 'assigned' });

/** The driver no longer has the job (dropped it, no-show, suspended, no longer fits): dispatch again. */
export function released(
  s: State,
  d: { driverId: string; outcome: model.CandidateOutcome; reason: string; at: string },
): State {
  const c = { driverId: d.driverId, driverName: '', distanceMeters: null };
  const logged = recorded(s, { tier: 'local', candidate: c, outcome: d.outcome, reason: d.reason, at: d.at });
  return { ...logged, driverId: null, status: 'dispatching' };
}

/** A driver who gave the job back (or was let go for not turning up) is never offered it again. */
export const droppedBy = (s: State, driverId: string): State => ({
  ...s,
  droppedDriverIds: [...s.droppedDriverIds, driverId],
});

export const suspended = (s: State, driverId: string): State =>
  model.isSuspended(s, driverId) ? s : { ...s, suspendedDriverIds: [...(s.suspendedDriverIds ?? []), driverId] };

export const confirmedBy = (s: State, driverId: string): State => ({ ...s, confirmedDriverId: driverId });
export const endedByOps = (s: State, reason: string): State => ({ ...s, ended: { by: 'ops', reason } });
export const paid = (s: State, payment: model.PaymentRecord | null): State => ({ ...s, payment });

export const cancelled = (s: State, reason: string | null): State => ({
  ...s,
  offer: null,
  cancelReason: reason,
  status: 'cancelled',
});

export const amended = (s: State, job: model.JobSpec): State => ({ ...s, job });

export const rerouted = (s: State, route?: model.AmendedRoute, fare?: model.AmendedFare): State => ({
  ...s,
  ...(route ? { pickup: route.pickup, dropoff: route.dropoff } : {}),
  ...(fare ? { fare } : {}),
});

export const exchangeChanged = (s: State, change: Partial<model.ExchangeState>): State => ({
  ...s,
  exchange: { ...(s.exchange ?? model.NO_EXCHANGE), ...change },
});
