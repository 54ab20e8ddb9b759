import { recordStaffAction, staffActionsFor, type StaffMember } from '../auth/staff.js';
import { sendBestEffort } from '../notify/best-effort.js';
import { renderPassengerAmendedText } from '../notify/templates.js';
import { fareProvenance } from '../quotes/fare-provenance.js';
import { priceTrip } from '../quotes/create-quote.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import type { AmendInput } from '../../workflows/bookings/definitions.js';
import { passengerHearsFromUs } from '../model/bookings.js';
import { AmendDriverOnTheWay, AmendTooLate, amendBooking } from './amend.js';
import { placeSnapshot } from './book.js';
import { findBooking, type BookingWithDriver } from './store.js';

/** What ops may change on a live booking, as typed into the console (at least one). */
export interface OpsAmendment {
  pickup?: string | undefined;
  dropoff?: string | undefined;
  /** ISO 8601. */
  pickupAt?: string | undefined;
  reason: string;
}

/**
 * Ops amend a live booking's time, pickup or drop-off: the trip is priced again on the tariff (a
 * partner's agreed fare is kept) and applied through the same path as every amendment
 * (src/bookings/amend.ts): a new pickup or drop-off takes the job off the driver holding it (told
 * it is withdrawn) and dispatches it again; a new time keeps a driver who still fits. The passenger
 * is texted the booking as it now stands, and the action is recorded with its reason. Refused once
 * the passenger is on board, and a new place once the driver is on the way.
 */
export async function amendAsOps(
  s: Services,
  staff: StaffMember,
  ref: string,
  a: OpsAmendment,
): Promise<BookingWithDriver> {
  const row = await findBooking(s.sql, ref);
  if (!row) throw Refusal.notFound('booking_not_found', `No booking ${ref}.`);
  const placesMove = a.pickup !== undefined || a.dropoff !== undefined;
  if (!placesMove && a.pickupAt === undefined) {
    throw Refusal.invalid('nothing_to_amend', 'Say the new pickup time, pickup or drop-off.', {
      field: { name: 'pickup_at', message: 'or pickup, or dropoff, is required' },
    });
  }
  if (a.pickupAt !== undefined && Date.parse(a.pickupAt) < s.now().getTime()) {
    throw Refusal.invalid('depart_at_in_past', 'The new pickup time is in the past.', {
      field: { name: 'pickup_at', message: 'must not be in the past' },
    });
  }
  // A booking for now, or whose pickup time has come, is priced as leaving now.
  const pickupAt = a.pickupAt ?? new Date(Math.max(row.pickup_at.getTime(), s.now().getTime())).toISOString();
  // Places not changed are read again from what was typed: the same answer as at booking.
  const trip = await priceTrip(s, {
    // Refusals name fields without a location: the HTTP layer adds 'body.' (it said body.body.pickup).
    fields: { pickup: 'pickup', dropoff: 'dropoff', departAt: 'pickup_at' },
    pickup: a.pickup ?? row.pickup_query,
    dropoff: a.dropoff ?? row.dropoff_query,
    departAt: pickupAt,
    vehicleType: row.vehicle_type,
    passengers: row.passengers,
    meetAndGreet: row.meet_and_greet,
    worldwide: false,
    apiKey: null,
  });
  const amendment: AmendInput = {
    pickupAt: trip.departAt.toISOString(),
    ...(placesMove
      ? {
          route: {
            pickupQuery: a.pickup ?? row.pickup_query,
            dropoffQuery: a.dropoff ?? row.dropoff_query,
            pickup: placeSnapshot(trip.pickup),
            dropoff: placeSnapshot(trip.dropoff),
            pickupArea: trip.price.tariff.areaId,
            distanceM: trip.distanceMeters,
            durationS: trip.durationSeconds,
          },
        }
      : {}),
    // A partner's agreed fare stands; any other is the tariff's for the trip as it now is.
    ...(row.fare_source === 'partner'
      ? {}
      : {
          fare: {
            farePence: trip.price.totalPence,
            fareSource: 'tariff' as const,
            provenance: fareProvenance(trip.price, {
              distanceMeters: trip.distanceMeters,
              durationSeconds: trip.durationSeconds,
              model: trip.routeModel,
            }),
          },
        }),
  };
  let amended;
  try {
    amended = await amendBooking(s, ref, amendment);
  } catch (err) {
    if (err instanceof AmendTooLate)
      throw Refusal.conflict(
        'too_late_to_amend',
        `Booking ${ref} is ${err.status.replace(/_/g, ' ')}: it can no longer be amended.`,
      );
    if (err instanceof AmendDriverOnTheWay)
      throw Refusal.conflict(
        'amend_driver_on_the_way',
        `The driver of ${ref} is on the way: the pickup and drop-off can no longer change.`,
      );
    throw err;
  }
  if (!amended) throw Refusal.conflict('booking_closed', `Booking ${ref} is no longer running.`);
  await recordStaffAction(s.sql, {
    staffId: staff.id,
    action: 'booking.amend',
    subjectKind: 'booking',
    subjectId: ref,
    reason: a.reason,
    details: {
      before: {
        pickup: row.pickup.label,
        dropoff: row.dropoff.label,
        pickup_at: row.pickup_at.toISOString(),
        fare_pence: row.fare_pence,
      },
      after: {
        pickup: trip.pickup.label,
        dropoff: trip.dropoff.label,
        pickup_at: trip.departAt.toISOString(),
        fare_pence: amendment.fare?.farePence ?? row.fare_pence,
      },
    },
  });
  const after = (await findBooking(s.sql, ref)) ?? row;
  // Each amendment told once (its number among the booking's amendments); a partner's customer hears from the partner.
  const amendments = (await staffActionsFor(s.sql, 'booking', ref)).filter((x) => x.action === 'booking.amend').length;
  if (after.passenger_phone && passengerHearsFromUs(after.source)) {
    const msg = {
      channel: 'sms' as const,
      to: after.passenger_phone,
      body: renderPassengerAmendedText(after, `${s.config.PUBLIC_BASE_URL}/track/${ref}`),
      idempotencyKey: `amended-by-ops:${ref}:${amendments}`,
      bookingRef: ref,
    };
    // The amendment stands whether or not the text goes: an undeliverable number is not an error here.
    await sendBestEffort(s.notifier, msg, () => undefined);
  }
  return after;
}
