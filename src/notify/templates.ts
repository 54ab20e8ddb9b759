import { DateTime } from 'luxon';
import type { BookingRow } from '../bookings/store.js';
import type { DriverRow } from '../drivers/store.js';
import { precisionNote, precisionOf } from '../geo/precision.js';
import { shownDriverDetail } from '../screening/driver-details.js';

// The words drivers, passengers and ops read. Times are shown in Europe/London; money in pounds.
// Text another party typed reaches a message only screened: a booking's notes and names were
// screened at entry (src/screening/free-text.ts) and go to the driver's job card; a driver's name,
// car and plate go to the passenger only if they pass src/screening/driver-details.ts; a cancel
// reason goes into no message at all (the driver is told the job is cancelled, not why).

export function londonTime(at: Date): string {
  return DateTime.fromJSDate(at, { zone: 'Europe/London' }).toFormat("ccc d LLL HH:mm");
}

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** A driver must never take a town centre for the door: say when a place is approximate. */
function withPrecision(place: BookingRow['pickup']): string {
  const note = precisionNote(precisionOf(place));
  return note ? `${place.label} (${note})` : place.label;
}

export function renderJobCardText(b: BookingRow, link: string): string {
  const lines = [
    `New job ${b.ref}: ${londonTime(b.pickup_at)}`,
    `From: ${withPrecision(b.pickup)}`,
    `To: ${b.dropoff.label}`,
    `${b.passengers} passenger${b.passengers > 1 ? 's' : ''}, ${b.vehicle_type}${b.wheelchair ? ', wheelchair' : ''}`,
    `Fare ${pounds(b.fare_pence)} paid to you (${b.payment_method.replace(/_/g, ' ')})`,
  ];
  if (b.flight_number) lines.push(`Flight ${b.flight_number}`);
  // The passenger paid for it: the driver is the one who has to do it.
  if (b.meet_and_greet) lines.push('Meet and greet: meet the passenger inside, in arrivals, with a name board');
  if (b.notes) lines.push(`Notes: ${b.notes}`);
  lines.push(`Accept or decline: ${link}`);
  return lines.join('\n');
}

/**
 * The passenger's "your driver" text. What the driver typed (name, car, plate) was checked when they
 * applied; it is checked again here, and left out if it fails, since an SMS is not the place to find
 * a row that predates the check (src/screening/driver-details.ts).
 */
export function renderPassengerAssignedText(b: BookingRow, d: DriverRow, trackUrl: string): string {
  const name = shownDriverDetail('name', d.name) ?? 'Your driver';
  const vehicle = [shownDriverDetail('vehicle', d.vehicle_description), shownDriverDetail('licence', d.plate)].filter(Boolean).join(', ');
  return `Booking ${b.ref}: ${name} will pick you up at ${londonTime(b.pickup_at)}${vehicle ? ` (${vehicle})` : ''}. Track: ${trackUrl}`;
}

export function renderOpsUnassignedEmail(b: BookingRow, round: number, baseUrl: string): { subject: string; body: string } {
  return {
    subject: `Unassigned booking ${b.ref} (round ${round})`,
    body: [
      `No driver accepted booking ${b.ref} in round ${round}; the cascade will retry on a backoff until pickup.`,
      `Pickup ${londonTime(b.pickup_at)} at ${b.pickup.label}, to ${b.dropoff.label}.`,
      `${b.passengers} passengers, ${b.vehicle_type}${b.wheelchair ? ', wheelchair' : ''}.`,
      `Workflow: booking:${b.ref} (Temporal Web UI). Tracking: ${baseUrl}/track/${b.ref}`,
    ].join('\n'),
  };
}

export function renderOpsNearPickupEmail(b: BookingRow, baseUrl: string, workflowUrl: string): { subject: string; body: string } {
  return {
    subject: `No driver yet: ${b.ref}, pickup ${londonTime(b.pickup_at)}`,
    body: [
      `Booking ${b.ref} has no driver and its pickup is ${londonTime(b.pickup_at)} (Europe/London), at ${b.pickup.label}, to ${b.dropoff.label}.`,
      `${b.passengers} passengers, ${b.vehicle_type}${b.wheelchair ? ', wheelchair' : ''}. Status: ${b.status.replace(/_/g, ' ')}.`,
      `Its story and dispatch decisions: ${baseUrl}/ops/bookings?ref=${b.ref}`,
      `Workflow history: ${workflowUrl}`,
      `Tracking: ${baseUrl}/track/${b.ref}`,
    ].join('\n'),
  };
}

export function renderBookingConfirmationEmail(b: BookingRow, trackUrl: string, confirmLink: string | null): { subject: string; body: string } {
  const lines = [
    `Hello ${b.passenger_name},`,
    '',
    `Your taxi ${b.ref}: ${londonTime(b.pickup_at)} from ${b.pickup.label} to ${b.dropoff.label}.`,
    `Fare ${pounds(b.fare_pence)}, paid to the driver (${b.payment_method.replace(/_/g, ' ')}).`,
  ];
  if (confirmLink) {
    lines.push('', 'Please confirm this booking so we can send it to a driver:', confirmLink);
  }
  lines.push('', `Track it here: ${trackUrl}`);
  return { subject: confirmLink ? `Confirm your taxi ${b.ref}` : `Your taxi ${b.ref} is booked`, body: lines.join('\n') };
}
