import { carDescription, firstName, formatRegistration, type CarFacts } from './car.js';
import { precisionNote, precisionOf } from '../geo/precision.js';
import { shownDriverDetail } from '../screening/driver-details.js';
import type { PlaceSnapshot } from '../model/bookings.js';
import { placeForPeople } from '../model/places.js';
import { passengerNeeds } from '../model/needs.js';
import { londonHourMinute, londonShortTime } from '../model/london-clock.js';

// The words drivers, passengers and ops read. Times are shown in Europe/London; money in pounds.
// Text another party typed reaches a message only screened: a booking's notes and names were
// screened at entry (src/screening/free-text.ts) and go to the driver's job card; a driver's name,
// car and plate go to the passenger only if they pass src/screening/driver-details.ts; a cancel
// reason goes into no message at all (the driver is told the job is cancelled, and by whom, from a
// fixed set: never why). Every message's words are here, whoever sends it.

/**
 * What a text says about a driver: the columns of src/drivers/store.ts's DriverRow it reads (a driver
 * row fits). Named here because src/drivers sends these texts: src/notify imports no area.
 */
export interface DriverFacts extends CarFacts {
  id: string;
  name: string;
  phone: string;
  plate: string;
  vehicle_registration: string | null;
}

/**
 * What a text says about a booking: the columns of src/bookings/store.ts's BookingFacts it reads (a
 * booking row fits). Named here, like DriverFacts, because src/notify imports no area.
 */
export interface BookingFacts {
  ref: string;
  status: string;
  passenger_name: string;
  passenger_phone: string;
  payment_method: string;
  flight_number: string | null;
  meet_and_greet: boolean;
  /** Absent on rows read before migration 00051's columns existed in a test's hand-made booking. */
  assistance_dog?: boolean;
  help_finding_vehicle?: boolean;
  notes: string | null;
  pickup: PlaceSnapshot;
  dropoff: PlaceSnapshot;
  /** The pickup and drop-off as typed (the booking's pickup_query, dropoff_query); absent: the place alone. */
  pickup_query?: string | null;
  dropoff_query?: string | null;
  pickup_at: Date;
  passengers: number;
  vehicle_type: string;
  wheelchair: boolean;
  fare_pence: number;
  /** The fare quoted, when the driver's own approved rate set fare_pence (BookingFacts's). */
  quoted_fare_pence?: number | null;
}

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** A driver must never take a town centre for the door: say when a place is approximate. */
function withPrecision(shown: string, place: PlaceSnapshot): string {
  const note = precisionNote(precisionOf(place));
  return note ? `${shown} (${note})` : shown;
}

// Where a person reads a pickup or drop-off: the passenger's words beside the place (src/model/places.ts).
const from = (b: BookingFacts) => placeForPeople(b.pickup_query, b.pickup);
const to = (b: BookingFacts) => placeForPeople(b.dropoff_query, b.dropoff);

/**
 * `offerFarePence`: the fare the card offers (the offer's, src/dispatch/driver-fare.ts); a driver
 * with their own approved rate is offered the job at it, and told so.
 */
export function renderJobCardText(
  b: BookingFacts,
  link: string,
  offerFarePence: number | null = null,
  won = false,
): string {
  const fare = offerFarePence ?? b.fare_pence;
  const ownRate = fare !== (b.quoted_fare_pence ?? b.fare_pence) ? ', at your own approved rate' : '';
  const lines = [
    `${won ? 'Your job' : 'New job'} ${b.ref}: ${londonShortTime(b.pickup_at)}`,
    `From: ${withPrecision(from(b), b.pickup)}`,
    `To: ${to(b)}`,
    `${b.passengers} passenger${b.passengers > 1 ? 's' : ''}, ${b.vehicle_type}${b.wheelchair ? ', wheelchair' : ''}`,
    `Fare ${pounds(fare)} paid to you (${b.payment_method.replace(/_/g, ' ')})${ownRate}`,
  ];
  if (b.flight_number) lines.push(`Flight ${b.flight_number}`);
  // The passenger paid for it: the driver is the one who has to do it.
  if (b.meet_and_greet) lines.push('Meet and greet: meet the passenger inside, in arrivals, with a name board');
  lines.push(...passengerNeeds(b).map((n) => `${n.label}: ${n.text}`));
  if (b.notes) lines.push(`Notes: ${b.notes}`);
  // The card of a job already won (deliverWonCard) links to the same page, where the trip is driven.
  lines.push(won ? `You accepted it. Trip steps: ${link}` : `Accept or decline: ${link}`);
  return lines.join('\n');
}

/**
 * The passenger's "your driver" text: first name only (a passenger needs to greet the driver, not
 * to know their surname), the car as they will see it at the kerb (colour, make and model, the
 * registration on its number plate) and when it arrives. What the driver typed was checked when
 * they applied; it is checked again here, and left out if it fails, since an SMS is not the place
 * to find a row that predates the check (src/screening/driver-details.ts).
 */
export function renderPassengerAssignedText(
  b: BookingFacts,
  d: DriverFacts,
  trackUrl: string,
  etaMinutes: number | null = null,
  provider: ProvidingOperator | null = null,
): string {
  const car = passengerCarDescription(d);
  const arriving =
    etaMinutes !== null ? `arriving in about ${etaMinutes} min` : `picking you up at ${londonShortTime(b.pickup_at)}`;
  // A driver charging their own approved rate takes less than quoted: the passenger pays that, and is told so.
  const fare =
    b.quoted_fare_pence != null && b.fare_pence < b.quoted_fare_pence
      ? ` Fare ${pounds(b.fare_pence)} at your driver's rate (quoted ${pounds(b.quoted_fare_pence)}).`
      : '';
  const by = provider ? ` ${providedBy(provider)}` : '';
  return `Direct Taxi: booking ${b.ref}: ${driverFirstName(d.name) ?? 'your driver'} is ${arriving}${car ? `, ${car}` : ''}.${fare}${by} Track: ${trackUrl}`;
}

/** Another licensed operator our booking was sub-contracted to, and the licence it rests on. */
export interface ProvidingOperator {
  name: string;
  licence: string | null;
}

/** "Tyne Cars, a licensed operator we work with (… licence …)": the texts and the tracking page alike. */
export const providerWords = (p: ProvidingOperator) =>
  `${p.name}, a licensed operator we work with${p.licence ? ` (${p.licence})` : ''}`;

const providedBy = (p: ProvidingOperator) => `Your ride is provided by ${providerWords(p)}.`;

/**
 * The job was handed to another operator (an exchange fleet): the passenger is told who provides
 * the ride, as the law of sub-contracting expects, and that nothing else changes.
 */
export function renderPassengerProvidedByText(b: BookingFacts, p: ProvidingOperator, trackUrl: string): string {
  return `Direct Taxi: booking ${b.ref}: ${providedBy(p)} Your booking and fare stay the same; the tracking page shows your driver once one is assigned: ${trackUrl}`;
}

/** The first of the driver's names, as screened, or null when it may not be shown. */
export function driverFirstName(name: string): string | null {
  return firstName(shownDriverDetail('name', name));
}

/**
 * "Silver Toyota Prius, registration AB12 CDE": what a passenger looks for at the kerb (the same
 * words as the tracking page, src/notify/car.ts). Without a registration on file the council
 * licence number is given, labelled as what it is.
 */
export function passengerCarDescription(d: Omit<DriverFacts, 'id' | 'name' | 'phone'>): string {
  const description = shownDriverDetail('vehicle', d.vehicle_description);
  const known = description !== null || (d.vehicle_make && d.vehicle_model);
  const car = known ? carDescription({ ...d, vehicle_description: description ?? '' }, '') : '';
  const registration = formatRegistration(
    d.vehicle_registration ? shownDriverDetail('licence', d.vehicle_registration) : null,
  );
  const licence = registration ? null : shownDriverDetail('licence', d.plate);
  return [car, registration ? `registration ${registration}` : licence ? `council licence ${licence}` : '']
    .filter(Boolean)
    .join(', ');
}

/**
 * The job was taken off its driver (they dropped out, did not show, or staff suspended them) and
 * is being dispatched again. Never says why: that is between the operator and the driver.
 */
export function renderPassengerDriverChangedText(b: BookingFacts, trackUrl: string): string {
  return `Direct Taxi: booking ${b.ref}: your driver can no longer take your trip. We are finding you another driver now, at the same fare, and will text you who is coming. Track: ${trackUrl}`;
}

/** To the driver a job was taken off by staff (suspension): the job is gone, do not go. */
/** To a driver of a group offer whose card was withdrawn because another driver accepted first. */
export function renderJobTakenText(b: BookingFacts): string {
  return `Job ${b.ref} (${londonShortTime(b.pickup_at)}, ${from(b)}) has been taken by another driver. No action needed.`;
}

export function renderDriverJobWithdrawnText(b: BookingFacts): string {
  return `Job ${b.ref} (${londonShortTime(b.pickup_at)}, ${from(b)}) has been withdrawn from you by Direct Taxi. Do not go to the pickup.`;
}

/**
 * To the driver holding a job, or whose job card was out, when the booker moved its pickup or
 * drop-off: the job as they knew it is gone (the booking is dispatched again, and a new card comes
 * if it is offered to them).
 */
export function renderDriverJobAmendedText(b: BookingFacts): string {
  return `Job ${b.ref} (${londonShortTime(b.pickup_at)}, ${from(b)}) was changed by the booker and has been withdrawn from you. Do not go to the pickup. If it is offered to you again you will get a new job card.`;
}

/** To the driver keeping a job whose pickup time the booker moved. */
export function renderDriverPickupMovedText(b: BookingFacts): string {
  return `Job ${b.ref}: the pickup time has changed to ${londonShortTime(b.pickup_at)} (${from(b)}). The job is still yours.`;
}

/**
 * To a driver a job was taken off for the workflow's own reasons (they dropped it, did not reach the
 * pickup in time, or it no longer fits the amended booking). The reason is the workflow's fixed word
 * for it, never text anyone typed.
 */
export function renderDriverJobReleasedText(ref: string, reason: string): string {
  if (reason === 'not_confirmed')
    return `Job ${ref} has gone to another driver: it was not confirmed in time. Do not go to the pickup.`;
  return `Job ${ref} is no longer yours (${reason}). No action needed.`;
}

/** On the day, to a driver who accepted a job well ahead: confirm it by the deadline, or it goes to another driver. */
export function renderDriverConfirmJobText(b: BookingFacts, deadline: Date): string {
  return `Direct Taxi: please confirm job ${b.ref}, ${londonShortTime(b.pickup_at)} from ${from(b)}: open the driver app and press "Confirm I am doing this job" by ${londonHourMinute(deadline)}, or it goes to another driver.`;
}

/**
 * Who cancelled a booking, as its workflow was told (CancelInput['by'] in
 * workflows/bookings/definitions.ts): never why.
 */
export type CancelledBy = 'passenger' | 'partner' | 'ops';

const CANCELLED_BY: Record<CancelledBy, (partnerName: string | null) => string> = {
  passenger: () => 'the passenger',
  // The name our staff registered the partner, operator or supplier under (scripts/create-partner.ts).
  partner: (name) => name ?? 'the booking partner',
  ops: () => 'Direct Taxi operations',
};

/** A registered partner name fit for one line of an SMS, or null. */
function partnerDisplayName(name: string | null | undefined): string | null {
  const shown = name?.replace(/\s+/g, ' ').trim() ?? '';
  return shown.length > 0 && shown.length <= 60 ? shown : null;
}

/**
 * To the driver who held a cancelled job (its job card or the job itself): who cancelled it, from a
 * fixed set. `by` is absent when the workflow did not say (an activity scheduled before it passed
 * it): then the text names no one rather than guess. `partnerName` is used only for a partner's
 * cancel, and only the name our staff registered, never anything the partner sent.
 */
export function renderDriverJobCancelledText(
  ref: string,
  by?: CancelledBy | null,
  partnerName?: string | null,
): string {
  // A value this code does not know (a newer workflow's) names no one either.
  const who = by && Object.hasOwn(CANCELLED_BY, by) ? CANCELLED_BY[by](partnerDisplayName(partnerName)) : null;
  return `Job ${ref} has been cancelled${who ? ` by ${who}` : ''}. No action needed.`;
}

/** A trip ops ended: what the record says was paid, or that nothing is due. */
function endedSettlement(b: { paid_pence: number | null; paid_method: string | null }, nothingDue: string): string {
  if (b.paid_pence === null || b.paid_method === null || b.paid_method === 'none') return nothingDue;
  return `Payment on record: ${pounds(b.paid_pence)} (${b.paid_method.replace(/_/g, ' ')}).`;
}

// No text invites a reply: nobody reads replies to these numbers (issue 35). A text points to the
// booking's page instead, where the passenger can see it and act.
export function renderPassengerTripEndedText(
  b: BookingFacts & { paid_pence: number | null; paid_method: string | null },
  trackUrl: string,
): string {
  return `Direct Taxi: your trip ${b.ref} has been closed by our team. ${endedSettlement(b, 'Nothing is due for it.')} Your booking: ${trackUrl}`;
}

export function renderDriverTripEndedText(
  b: BookingFacts & { paid_pence: number | null; paid_method: string | null },
): string {
  return `Job ${b.ref} has been closed by Direct Taxi operations. ${endedSettlement(b, 'Nothing is due from the passenger: take no payment for it.')}`;
}

export function renderOpsSuspendedOnBoardEmail(
  b: BookingFacts,
  d: DriverFacts,
  baseUrl: string,
): { subject: string; body: string } {
  return {
    subject: `Suspended driver with a passenger on board: ${b.ref}`,
    body: [
      `Driver ${d.name} (${d.id}, ${d.phone}) was suspended while booking ${b.ref} had its passenger on board.`,
      'The trip was left to finish so the passenger is not stranded, but the driver can no longer report it or confirm payment.',
      `Once the passenger is dropped off, end it: POST ${baseUrl}/api/ops/bookings/${b.ref}/end with a reason and what was paid (or nothing due).`,
      `From ${from(b)} to ${to(b)}; fare ${pounds(b.fare_pence)}. Passenger ${b.passenger_name}, ${b.passenger_phone}.`,
      `Its story: ${baseUrl}/ops/bookings?ref=${b.ref}`,
    ].join('\n'),
  };
}

export function renderOpsUnassignedEmail(
  b: BookingFacts,
  round: number,
  baseUrl: string,
): { subject: string; body: string } {
  const needs = accessibilityNeeds(b);
  return {
    // A disabled passenger's booking is never declined for want of a suitable vehicle: ops are told
    // at once, and first, so a person can find one (docs/accessibility.md).
    subject: `${needs.length > 0 ? 'Accessible vehicle needed: ' : ''}Unassigned booking ${b.ref} (round ${round})`,
    body: [
      `No driver accepted booking ${b.ref} in round ${round}; the cascade will retry on a backoff until pickup.`,
      `Pickup ${londonShortTime(b.pickup_at)} at ${from(b)}, to ${to(b)}.`,
      `${b.passengers} passengers, ${b.vehicle_type}${b.wheelchair ? ', wheelchair' : ''}.`,
      ...(needs.length > 0
        ? [`The passenger needs: ${needs.join(', ')}. Please find a suitable vehicle or call them before pickup.`]
        : []),
      `Workflow: booking:${b.ref} (Temporal Web UI). Tracking: ${baseUrl}/track/${b.ref}`,
    ].join('\n'),
  };
}

export function renderOpsNearPickupEmail(
  b: BookingFacts,
  baseUrl: string,
  workflowUrl: string,
): { subject: string; body: string } {
  return {
    subject: `No driver yet: ${b.ref}, pickup ${londonShortTime(b.pickup_at)}`,
    body: [
      `Booking ${b.ref} has no driver and its pickup is ${londonShortTime(b.pickup_at)} (Europe/London), at ${from(b)}, to ${to(b)}.`,
      `${b.passengers} passengers, ${b.vehicle_type}${b.wheelchair ? ', wheelchair' : ''}. Status: ${b.status.replace(/_/g, ' ')}.`,
      `Its story and dispatch decisions: ${baseUrl}/ops/bookings?ref=${b.ref}`,
      `Workflow history: ${workflowUrl}`,
      `Tracking: ${baseUrl}/track/${b.ref}`,
    ].join('\n'),
  };
}

/**
 * Booked, by email: the trip, and a link that both confirms the address (so later bookings from it
 * need no screening) and opens the booking with the right to cancel it. `awaitingConfirmation` is
 * for bookings of releases that held dispatch until the link was opened.
 */
export function renderBookingConfirmationEmail(
  b: BookingFacts,
  trackUrl: string,
  confirmLink: string | null,
  awaitingConfirmation = false,
): { subject: string; body: string } {
  const lines = [
    `Hello ${b.passenger_name},`,
    '',
    `Your taxi ${b.ref}: ${londonShortTime(b.pickup_at)} from ${from(b)} to ${to(b)}.`,
    `Fare ${pounds(b.fare_pence)}, paid to the driver (${b.payment_method.replace(/_/g, ' ')}).`,
  ];
  if (confirmLink && awaitingConfirmation) {
    lines.push('', 'Please confirm this booking so we can send it to a driver:', confirmLink);
  } else if (confirmLink) {
    lines.push('', 'Confirm your email and manage or cancel this booking (free until you are on board):', confirmLink);
  }
  lines.push('', `Track it here: ${trackUrl}`);
  return {
    subject: awaitingConfirmation ? `Confirm your taxi ${b.ref}` : `Your taxi ${b.ref} is booked`,
    body: lines.join('\n'),
  };
}

/** The trip a passenger is told about, before or after its record exists. */
export interface TripSummary {
  ref: string;
  pickupLabel: string;
  dropoffLabel: string;
  pickupAt: Date;
}

/**
 * To a booking's phone: a link to take charge of the booking. Sent when someone else asked for the
 * same trip, or the passenger asked for it by reference; it names no other caller.
 */
export function renderClaimLinkText(t: TripSummary, link: string): string {
  return [
    `Direct Taxi: your taxi ${t.ref}, ${londonShortTime(t.pickupAt)} from ${t.pickupLabel} to ${t.dropoffLabel}, is booked with this number.`,
    `To manage or cancel it yourself, open ${link} (valid 24 hours).`,
    'If this is not your trip, ignore this message.',
  ].join('\n');
}

/** Who cancelled, as the passenger is told it. */
const CANCELLED_FOR_PASSENGER: Record<CancelledBy, string> = {
  passenger: 'as you asked',
  partner: 'by the company you booked through',
  ops: 'by Direct Taxi operations',
};

/**
 * To the passenger whenever a booking is cancelled, saying by whom (never a reason typed by
 * someone else). `by` is absent from activities scheduled before the workflow passed it.
 */
export function renderPassengerCancelledText(b: BookingFacts, by?: CancelledBy | null): string {
  const who = by && Object.hasOwn(CANCELLED_FOR_PASSENGER, by) ? ` ${CANCELLED_FOR_PASSENGER[by]}` : '';
  return `Direct Taxi: taxi ${b.ref}, ${londonShortTime(b.pickup_at)} from ${from(b)}, has been cancelled${who}. Nothing is due. If you did not expect this, book again.`;
}

/** Ops changed the booking: how it now stands. */
export function renderPassengerAmendedText(b: BookingFacts, trackUrl: string): string {
  return `Direct Taxi: booking ${b.ref} has been changed by Direct Taxi operations: now ${londonShortTime(b.pickup_at)} from ${from(b)} to ${to(b)}, fare ${pounds(b.fare_pence)}. If it is not right, see your booking: ${trackUrl}`;
}

/** Booked: what, when, the fare, and where to follow it. Sent to the passenger's phone. */
export function renderPassengerBookedText(b: BookingFacts, trackUrl: string): string {
  return `Direct Taxi: taxi ${b.ref} booked, ${londonShortTime(b.pickup_at)} from ${from(b)} to ${to(b)}. Fare ${pounds(b.fare_pence)}, paid to the driver. We will text you who is coming. Track or cancel: ${trackUrl}`;
}

/**
 * A round of the cascade found nobody: the passenger hears once, with what happens next and that
 * they may cancel free, so they are not left waiting on a taxi that may not come.
 */
export function renderPassengerNoDriverYetText(b: BookingFacts, trackUrl: string, searchUntil?: string): string {
  // A booking of the released workflow searched until pickup; today's searches until `searchUntil`.
  const until = searchUntil
    ? londonShortTime(new Date(searchUntil))
    : `your pickup time (${londonShortTime(b.pickup_at)})`;
  // Said honestly, never a refusal: no suitable vehicle free yet, people told, nothing extra to pay.
  if (isWheelchairJob(b) || b.assistance_dog) {
    const what = isWheelchairJob(b) ? 'a wheelchair-accessible vehicle' : 'a driver who can take your assistance dog';
    return `Direct Taxi: booking ${b.ref}: we have not yet found ${what} free near ${from(b)}. We keep looking until ${until}, our team has been told and will help, and we will text you as soon as a driver accepts. It costs nothing extra. You can cancel free at any time: ${trackUrl}`;
  }
  return `Direct Taxi: booking ${b.ref}: no driver has accepted yet. We keep asking drivers near ${from(b)} until ${until} and will text you as soon as one does. You can cancel free at any time: ${trackUrl}`;
}

const isWheelchairJob = (b: BookingFacts) => b.wheelchair || b.vehicle_type === 'wav';

/** A disabled passenger's needs as ops read them; empty for most bookings. */
export function accessibilityNeeds(b: BookingFacts): string[] {
  return [
    ...(isWheelchairJob(b) ? ['a wheelchair-accessible vehicle'] : []),
    ...(b.assistance_dog ? ['an assistance dog carried'] : []),
    ...(b.help_finding_vehicle ? ['help finding the vehicle'] : []),
  ];
}

/** The search over with nobody found: the booking is closed. */
export function renderPassengerNoDriverFoundText(b: BookingFacts): string {
  return `Direct Taxi: sorry, no driver could take booking ${b.ref} (${londonShortTime(b.pickup_at)} from ${from(b)}). The booking is closed and nothing is due. Please make other arrangements.`;
}

/** What a completed trip cost, under which rules, and what the driver recorded as paid. */
export interface Receipt {
  rules: { description: string; amountPence: number }[];
  /** The authority whose tariff priced it, or how else the fare was set. */
  basis: string;
  /** The distance and time the fare was priced on, and how they were found ("estimate:...", a road router). */
  measured?: { meters: number; seconds: number; route: string | null };
  payment: { id: number; amountPence: number; method: string; recordedAt: Date } | null;
}

/** The email has every line of how the fare was reached; the text only what each line added. */
function receiptLines(b: BookingFacts, r: Receipt, full: boolean): string[] {
  const paid = r.payment
    ? r.payment.method === 'none'
      ? 'Nothing was paid (recorded by the driver or our team).'
      : `Paid ${pounds(r.payment.amountPence)} to the driver (${r.payment.method.replace(/_/g, ' ')}), recorded ${londonShortTime(r.payment.recordedAt)}.`
    : 'No payment has been recorded yet.';
  return [
    `Receipt for taxi ${b.ref}: ${londonShortTime(b.pickup_at)}, ${from(b)} to ${to(b)}.`,
    `Fare ${pounds(b.fare_pence)}: ${r.basis}.`,
    ...(full && r.measured ? [`Priced for ${measuredWords(r.measured)}.`] : []),
    ...r.rules
      .filter((x) => full || x.amountPence !== 0)
      .map((x) => `  ${x.description}${x.amountPence !== 0 ? `: ${pounds(x.amountPence)}` : ''}`),
    paid,
    ...(r.payment ? [`Payment record ${r.payment.id}.`] : []),
  ];
}

/** "2.0 miles and 6 min, estimated from the straight line" / "..., by road". */
function measuredWords(m: NonNullable<Receipt['measured']>): string {
  const how =
    m.route === null
      ? ''
      : m.route.startsWith('estimate')
        ? ', estimated from the straight-line distance'
        : ', by road';
  return `${(m.meters / 1609.344).toFixed(1)} miles and ${Math.round(m.seconds / 60)} min${how}`;
}

export function renderPassengerReceiptText(b: BookingFacts, r: Receipt): string {
  return `Direct Taxi: ${receiptLines(b, r, false).join('\n')}`;
}

export function renderPassengerReceiptEmail(b: BookingFacts, r: Receipt): { subject: string; body: string } {
  return {
    subject: `Your receipt for taxi ${b.ref}`,
    body: [
      `Hello ${b.passenger_name},`,
      '',
      ...receiptLines(b, r, true),
      '',
      'Thank you for travelling with Direct Taxi.',
    ].join('\n'),
  };
}

/** To an online driver whose app stopped sending its position, before dispatch passes them over. */
export function renderDriverLocationWarningText(lastSeen: Date, stopsAt: Date): string {
  return `Direct Taxi: you are online but we have not had your location since ${londonHourMinute(lastSeen)}. Open the driver app and keep it open with location allowed, or you stop getting jobs at ${londonHourMinute(stopsAt)}. Go offline in the app if you have finished.`;
}

/** To an applicant staff approved: where to sign in. */
export function renderDriverApprovedText(publicBaseUrl: string): string {
  return `You are approved to drive with Direct Taxi. Sign in at ${publicBaseUrl}/driver with this phone number.`;
}

export function renderDriverRejectedText(): string {
  return 'Your application to drive with Direct Taxi was not approved.';
}

/**
 * A fortnight before a driver's (or their vehicle's) licence runs out. It is good through its last
 * day: offers stop once that day is over (src/dispatch/store.ts, licence_invalid_from).
 */
export function renderDriverLicenceReminderText(expires: string): string {
  return `Direct Taxi: your taxi licence runs out on ${expires}. Renew it and send us the new one, or job offers stop after that day.`;
}

/** The last warning, 3 days before (0.4.0): where to send the renewed licence. */
export function renderDriverLicenceWarningText(expires: string, daysLeft: number, publicBaseUrl: string): string {
  return `Direct Taxi: ${daysLeft} days left: your taxi licence runs out on ${expires} and job offers stop after that day. Send us the renewed one in the driver app: ${publicBaseUrl}/driver`;
}

/** A code proving a driver holds the new phone they asked to change to. */
export function renderDriverPhoneCodeText(code: string, validMinutes: number): string {
  return `Your Direct Taxi code to confirm this as your new driver phone is ${code}. It expires in ${validMinutes} minutes. Never share it.`;
}

const CHANGE_WORDS = { licences: 'renewed licence', vehicle: 'vehicle change', phone: 'new phone number' } as const;

/** Staff approved a change a driver sent from the app (src/drivers/changes.ts). */
export function renderDriverChangeApprovedText(kind: keyof typeof CHANGE_WORDS): string {
  return `Direct Taxi: your ${CHANGE_WORDS[kind]} is approved and on your record now.`;
}

/** Staff refused it, saying why (their words, cut to fit one text). */
export function renderDriverChangeRefusedText(kind: keyof typeof CHANGE_WORDS, reason: string): string {
  const why = reason.length > 200 ? `${reason.slice(0, 199)}…` : reason;
  return `Direct Taxi: your ${CHANGE_WORDS[kind]} was not approved: ${why} You can send it again in the driver app.`;
}

export function renderDriverSignInCodeText(code: string, validMinutes: number): string {
  return `Your Direct Taxi driver sign-in code is ${code}. It expires in ${validMinutes} minutes. Never share it.`;
}

/** A passenger's sign-in code, by SMS (the body) or email (subject and body). */
export function renderPassengerSignInCode(code: string, validMinutes: number): { subject: string; body: string } {
  return {
    subject: 'Your Direct Taxi sign-in code',
    body: `Your Direct Taxi sign-in code is ${code}. It expires in ${validMinutes} minutes. Never share it: nobody from Direct Taxi will ask for it.`,
  };
}

/** The code that proves a passenger reads the email they booked with. */
export function renderEmailVerificationCode(code: string, validMinutes: number): { subject: string; body: string } {
  return {
    subject: 'Your Direct Taxi verification code',
    body: `Your code is ${code}. It expires in ${validMinutes} minutes. If you did not ask for it, ignore this email.`,
  };
}

/** To ops, once a day, when a channel's one-time codes near the day's ceiling (src/auth/code-guard.ts). */
export function renderOpsCodeCeilingEmail(c: {
  channel: 'sms' | 'email';
  sent: number;
  ceiling: number;
  alertRatio: number;
}): { subject: string; body: string } {
  return {
    subject: `Sign-in ${c.channel} codes at ${Math.round(c.alertRatio * 100)} % of today's ceiling`,
    body:
      `${c.sent} of the ${c.ceiling} ${c.channel} codes allowed today (UTC) have been sent. At the ceiling, every sign-in and ` +
      `verification code by ${c.channel}, drivers' and returning passengers' too, stops until midnight UTC. If this is not real ` +
      `demand, look for many codes to drivers' or returning passengers' numbers from few addresses in the API logs; raise ` +
      `SIGN_IN_${c.channel === 'sms' ? 'SMS' : 'EMAILS'}_PER_DAY if it is.`,
  };
}

/** To ops, once a day, when codes to recipients never signed in reach their share of the day's ceiling (src/auth/code-guard.ts). */
export function renderOpsNewRecipientCodesPausedEmail(c: {
  channel: 'sms' | 'email';
  sent: number;
  ceiling: number;
  share: number;
}): { subject: string; body: string } {
  const limit = Math.floor(c.ceiling * c.share);
  return {
    subject: `Sign-in ${c.channel} codes to new ${c.channel === 'sms' ? 'numbers' : 'addresses'} paused for today`,
    body:
      `${c.sent} ${c.channel} codes have been sent today (UTC), and codes to recipients who never signed in may use only ${limit} ` +
      `(${Math.round(c.share * 100)} %) of the ${c.ceiling} allowed: until midnight UTC, new sign-ups, claim links, verification codes ` +
      `and new driver phones get no ${c.channel} code. Approved drivers and returning passengers still get theirs, up to the ceiling. ` +
      `If this is not real demand, look for SMS pumping (many new numbers from few addresses) in the API logs; raise ` +
      `SIGN_IN_${c.channel === 'sms' ? 'SMS' : 'EMAILS'}_PER_DAY if it is.`,
  };
}

/** To ops, once a UTC day per channel, when the bookings texted (or emailed) today near the ceiling. */
export function renderOpsMessageCeilingEmail(c: {
  channel: 'sms' | 'email';
  sent: number;
  ceiling: number;
  alertRatio: number;
  newRecipientShare: number;
}): { subject: string; body: string } {
  const what = c.channel === 'sms' ? 'texted' : 'emailed';
  return {
    subject: `Bookings ${what} at ${Math.round(c.alertRatio * 100)} % of today's ceiling`,
    body:
      `${c.sent} of the ${c.ceiling} bookings whose passengers may be ${what} today (UTC) have been. Past ` +
      `${Math.round(c.newRecipientShare * 100)} %, bookings from callers without an API key to passengers never seen before are no longer ` +
      `${what}; at the ceiling no booking is, until midnight UTC (the bookings themselves stand). If this is not real demand, look for ` +
      `SMS pumping (many new numbers from few addresses) in the API logs and messages_withheld; raise BOOKING_${c.channel === 'sms' ? 'SMS' : 'EMAILS'}_PER_DAY if it is.`,
  };
}

/** The driver's weekly invoice, with its pay link: sent when collection opens. */
export function renderInvoiceNoticeText(weekOf: string, totalPence: number, payUrl: string): string {
  return `Direct Taxi: your invoice for the week of ${weekOf} is ${pounds(totalPence)}. Pay here: ${payUrl} (the lines are in the driver app).`;
}

/** A reminder to pay (at most COLLECTION_POLICY.maxReminders per invoice). */
export function renderInvoiceReminderText(
  weekOf: string,
  totalPence: number,
  payUrl: string,
  overdueOn: string,
): string {
  return `Direct Taxi reminder: your invoice for the week of ${weekOf} (${pounds(totalPence)}) is unpaid. Pay by ${overdueOn}: ${payUrl}`;
}

/** To ops, once per invoice, when it becomes overdue. */
export function renderOpsInvoiceOverdueEmail(
  i: { who: string; account: string; accountId: string; weekOf: string; totalPence: number; remindersSent: number },
  baseUrl: string,
): { subject: string; body: string } {
  return {
    subject: `Overdue invoice: ${i.who}, week of ${i.weekOf}`,
    body: [
      `The invoice of ${i.account} ${i.who} (${i.accountId}) for the week of ${i.weekOf}, ${pounds(i.totalPence)}, is unpaid after ${i.remindersSent} reminder(s).`,
      `Every unpaid and overdue invoice: ${baseUrl}/api/ops/invoices?status=overdue`,
    ].join('\n'),
  };
}
