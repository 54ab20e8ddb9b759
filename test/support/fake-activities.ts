// Activities faked behind the same factory shape the worker registers (the `Activities` type of
// activities/index.ts), for workflow tests on the time-skipping server: no Postgres, no notifier,
// a small in-memory world whose every call is recorded.
import { ApplicationFailure } from '@temporalio/common';
import type { Activities } from '../../activities/index.js';
import type { PartnerJobRecord } from '../../src/partners/store.js';
import { offerId, type BookingStatus, type Tier } from '../../src/model/bookings.js';

export interface FakeDriver {
  id: string;
  tier: Tier;
  /** Already holding another booking's job card: every claim on them fails. */
  busy?: boolean;
  /** A number the provider refuses for good: their job card fails without retry. */
  unreachable?: boolean;
}

export interface FakeWorld {
  drivers: FakeDriver[];
  /** Every activity call, in order: [name, first argument]. */
  calls: Array<[string, unknown]>;
  called(name: keyof Activities): unknown[];
  /** Partner jobs: their records (by partner:jobRef), the bookings made for them and their statuses. */
  partnerJobs: Map<string, PartnerJobRecord>;
  bookings: Map<string, BookingStatus>;
  /** New jobs counted per partner and day, and the job references counted. */
  dailyJobs: Map<string, number>;
  /** Bookings the ops watcher would find without a driver near pickup, and those it alerted. */
  unassignedNearPickup: string[];
  opsAlerted: string[];
  /** Booking records whose retention is over, and those erased. */
  recordsExpired: string[];
  recordsErased: string[];
  /** Drivers whose app has gone quiet, and those the location watch warned (once each). */
  quietDrivers: string[];
  locationWarned: string[];
  /** What Postgres would say each driver is in (a job card or a job), for the suspension workflow. */
  driverBookings: Map<string, string[]>;
  /** Cards their drivers opened (offers.seen_at), as the card's page or the driver app records them. */
  openedCards: Set<string>;
}

export function fakeActivities(drivers: FakeDriver[] = []): { activities: Activities; world: FakeWorld } {
  const world: FakeWorld = {
    drivers,
    calls: [],
    called: (name) => world.calls.filter(([n]) => n === name).map(([, a]) => a),
    partnerJobs: new Map(),
    bookings: new Map(),
    dailyJobs: new Map(),
    unassignedNearPickup: [],
    opsAlerted: [],
    recordsExpired: [],
    recordsErased: [],
    quietDrivers: [],
    locationWarned: [],
    driverBookings: new Map(),
    openedCards: new Set(),
  };
  const countedJobs = new Set<string>();
  const isBusy = (driverId: string) => world.drivers.some((d) => d.id === driverId && d.busy);
  const log = (name: string, arg?: unknown) => {
    world.calls.push([name, arg]);
  };
  const activities: Activities = {
    async markQuoteRedeemed(r) {
      log('markQuoteRedeemed', r);
    },
    async markQuoteExpired(q) {
      log('markQuoteExpired', q);
    },
    async persistBooking(b) {
      log('persistBooking', b);
    },
    async setBookingStatus(s) {
      log('setBookingStatus', s);
    },
    async applyAmendment(a) {
      log('applyAmendment', a);
      return { driverStillFits: true };
    },
    async cancelBooking(c) {
      log('cancelBooking', c);
    },
    async recordPayment(p) {
      log('recordPayment', p);
      // Like the real store: one record per booking, the first one written.
      const first = world.called('recordPayment')[0] as typeof p;
      return {
        id: 1,
        amountPence: first.settlement.amountPence,
        method: first.settlement.method,
        recordedBy: first.settlement.by,
        recordedAt: '2026-11-23T12:00:00.000Z',
      };
    },
    async findCandidatePage(p) {
      log('findCandidatePage', p);
      const eligible = world.drivers.filter((d) => d.tier === p.tier && !p.exclude.includes(d.id));
      return {
        candidates: eligible.slice(0, p.limit).map((d) => ({ driverId: d.id, driverName: d.id, distanceMeters: 100 })),
        considered: world.drivers.filter((d) => d.tier === p.tier).length,
        eligible: eligible.length,
      };
    },
    async claimFromCandidatePage(p) {
      // As the real one: the page as findCandidatePage reads it, then up to claimUpTo free drivers claimed.
      const page = await activities.findCandidatePage(p);
      log('claimFromCandidatePage', p);
      const busy: string[] = [];
      const held: { driverId: string; offerId: string; expiresAt: string }[] = [];
      let busyBeforeFirst: string[] = [];
      for (const c of page.candidates) {
        if (held.length >= (p.claimUpTo ?? 1)) break;
        if (isBusy(c.driverId)) {
          busy.push(c.driverId);
          continue;
        }
        if (held.length === 0) busyBeforeFirst = [...busy];
        const expiresAt = new Date(Date.now() + p.offerTimeoutSeconds * 1000).toISOString();
        held.push({ driverId: c.driverId, offerId: offerId(p.ref, p.round, c.driverId), expiresAt });
      }
      const first = held[0];
      const claim = first
        ? { ...first, busy: busyBeforeFirst }
        : busy.length > 0
          ? { driverId: null, offerId: null, expiresAt: null, busy }
          : null;
      return { ...page, claim, held, busy };
    },
    async openBookingWithFirstCard(p) {
      // As the real one: the record, the first page claimed and the cards (the first by SMS); each part
      // logged as its own call.
      log('openBookingWithFirstCard', p);
      await activities.persistBooking({ booking: p.booking, job: p.job, status: p.status });
      const toldBooked = Boolean(p.tellBooked);
      if (toldBooked) await activities.tellPassenger({ ref: p.booking.ref, news: { kind: 'booked' } });
      const page = await activities.claimFromCandidatePage(p.claim);
      if (page.held.length === 0) return { ...page, card: null, toldBooked };
      const held = [];
      for (const [i, h] of page.held.entries()) {
        const card = {
          offerId: h.offerId,
          ref: p.booking.ref,
          driverId: h.driverId,
          ...(i === 0 ? {} : { sms: false }),
        };
        try {
          await activities.sendJobCard(card);
          held.push({ ...h, card: 'sent' as const });
        } catch {
          held.push({ ...h, card: 'undeliverable' as const });
        }
      }
      return { ...page, held, card: held[0]!.card, toldBooked };
    },
    async openOffer(o) {
      log('openOffer', o);
      return { claimed: !isBusy(o.driverId) };
    },
    async cardsOpened(c) {
      log('cardsOpened', c);
      return { opened: c.offerIds.filter((id) => world.openedCards.has(id)) };
    },
    async closeOffer(o) {
      log('closeOffer', o);
    },
    async claimUpcomingJob(c) {
      log('claimUpcomingJob', c);
      return isBusy(c.driverId)
        ? { claimed: false as const, reason: 'you have another job at that time' }
        : { claimed: true as const };
    },
    async assignDriver(a) {
      log('assignDriver', a);
    },
    async releaseDriver(r) {
      log('releaseDriver', r);
    },
    async sendBookingConfirmation(c) {
      log('sendBookingConfirmation', c);
    },
    async tellPassenger(t) {
      log('tellPassenger', t);
    },
    async askDriverToConfirm(a) {
      log('askDriverToConfirm', a);
    },
    async sendJobCard(c) {
      log('sendJobCard', c);
      if (world.drivers.some((d) => d.id === c.driverId && d.unreachable))
        throw ApplicationFailure.nonRetryable(`job card to ${c.driverId} undeliverable`, 'JobCardUndeliverable');
    },
    async tellJobCardTaken(c) {
      log('tellJobCardTaken', c);
    },
    async alertOps(a) {
      log('alertOps', a);
    },
    async sendLicenceReminder(r) {
      log('sendLicenceReminder', r);
    },
    async sendLicenceLapseWarning(r) {
      log('sendLicenceLapseWarning', r);
    },
    async findDriverBookings(d) {
      log('findDriverBookings', d);
      return { refs: world.driverBookings.get(d.driverId) ?? [] };
    },
    async alertOpsSuspendedOnBoard(a) {
      log('alertOpsSuspendedOnBoard', a);
    },
    async sendTripEndedByOps(e) {
      log('sendTripEndedByOps', e);
    },
    async alertUnassignedNearPickup() {
      log('alertUnassignedNearPickup');
      // Each booking due is alerted once, as the real claim in Postgres makes it.
      const due = world.unassignedNearPickup.filter((ref) => !world.opsAlerted.includes(ref));
      world.opsAlerted.push(...due);
      return { alerted: due };
    },
    async eraseExpiredRecords() {
      log('eraseExpiredRecords');
      // Each expired record is erased once, as the real delete in Postgres makes it.
      const due = world.recordsExpired.filter((ref) => !world.recordsErased.includes(ref));
      world.recordsErased.push(...due);
      return { erased: due };
    },
    async warnDriversLosingLocation() {
      log('warnDriversLosingLocation');
      // Each quiet driver is warned once, as the real claim in Postgres makes it.
      const due = world.quietDrivers.filter((id) => !world.locationWarned.includes(id));
      world.locationWarned.push(...due);
      return { warned: due };
    },
    async saveSubscription(s) {
      log('saveSubscription', s);
    },
    async recordTrialExtension(e) {
      log('recordTrialExtension', e);
    },
    async loadPartnerJobRecord(j) {
      log('loadPartnerJobRecord', j);
      const r = world.partnerJobs.get(`${j.partnerId}:${j.jobRef}`);
      return r ? { ...r, bookingStatus: r.bookingRef ? (world.bookings.get(r.bookingRef) ?? null) : null } : null;
    },
    async savePartnerJobRecord(r) {
      log('savePartnerJobRecord', r);
      world.partnerJobs.set(`${r.partnerId}:${r.jobRef}`, structuredClone(r));
    },
    async countPartnerJob(c) {
      log('countPartnerJob', c);
      const job = `${c.partnerId}:${c.jobRef}`;
      if (countedJobs.has(job)) return true;
      const key = `${c.partnerId}:${c.day}`;
      const n = world.dailyJobs.get(key) ?? 0;
      if (n >= c.limit) return false;
      world.dailyJobs.set(key, n + 1);
      countedJobs.add(job);
      return true;
    },
    async createPartnerBooking(c) {
      log('createPartnerBooking', c);
      const ref = `TXFAKE${String(world.bookings.size + 1).padStart(4, '0')}`;
      world.bookings.set(ref, 'dispatching');
      return { ref, status: 'dispatching' as const };
    },
    async amendPartnerBooking(a) {
      log('amendPartnerBooking', a);
      const status = world.bookings.get(a.ref) ?? null;
      if (status === null || ['on_board', 'completed', 'cancelled', 'no_show'].includes(status))
        return { ok: false as const, code: 'amend_too_late' as const, status };
      if (a.changes.route && ['en_route', 'arrived'].includes(status))
        return { ok: false as const, code: 'amend_driver_on_the_way' as const, status };
      return { ok: true as const, status };
    },
    async cancelPartnerBooking(c) {
      log('cancelPartnerBooking', c);
      const status = world.bookings.get(c.ref) ?? null;
      if (status === 'completed' || status === 'no_show')
        return { ok: false as const, code: 'job_completed' as const, status };
      if (status === 'on_board') return { ok: false as const, code: 'trip_in_progress' as const, status };
      world.bookings.set(c.ref, 'cancelled');
      return { ok: true as const, status: 'cancelled' as const };
    },
    async billDriverWeek(w) {
      log('billDriverWeek', w);
      return {
        ...w,
        earningsPence: 0,
        smsCount: 0,
        feePence: 0,
        smsPence: 0,
        thirdPartyJobs: 0,
        thirdPartyPence: 0,
        cardTrips: 0,
        cardPence: 0,
        totalPence: 0,
        status: 'free',
        lines: [],
      };
    },
    // Invoice collection (test/workflows/billing.test.ts stands in its own world for it).
    async openInvoiceCollection(i) {
      log('openInvoiceCollection', i);
    },
    async remindInvoice(i) {
      log('remindInvoice', i);
    },
    async markInvoiceOverdue(i) {
      log('markInvoiceOverdue', i);
    },
    async markInvoicePaid(i) {
      log('markInvoicePaid', i);
    },
    async billPartnersWeek(w) {
      log('billPartnersWeek', w);
      return [];
    },
    // Partner status delivery: nothing due unless a test stands in its own (test/workflows/partner-delivery.test.ts).
    async dueDeliveries(b) {
      log('dueDeliveries', b);
      return [];
    },
    async deliverPartnerEvent(e) {
      log('deliverPartnerEvent', e);
      return 'delivered' as const;
    },
    async givePartnerEventUp(e) {
      log('givePartnerEventUp', e);
    },
    // No exchange fleets in the fake world: an exhausted cascade stays exhausted.
    async nextExchangeFleet(q) {
      log('nextExchangeFleet', q);
      return null;
    },
    async sendExchangeJob(s) {
      log('sendExchangeJob', s);
      return { outcome: 'rejected', code: 'fake' };
    },
    async endExchangeJob(e) {
      log('endExchangeJob', e);
    },
    async applyExchangeStatus(u) {
      log('applyExchangeStatus', u);
    },
  };
  return { activities, world };
}
