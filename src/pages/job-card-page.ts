import { placeForPeople } from '../model/places.js';
import type { BookingWithDriver } from '../bookings/store.js';
import { precisionNote, precisionOf } from '../geo/precision.js';
import { html, type SafeHtml } from './escape-html.js';
import { londonDateTime, passengersLabel, paymentLabel, pounds, tripWords, vehicleNeeds } from './format.js';
import { layout, messagePage, type Page } from './layout.js';
import { pageScript } from './page-scripts.js';
import type { OfferRow as OfferForPage } from '../dispatch/store.js';
import { NOTHING_DUE } from '../model/bookings.js';
import { passengerNeeds } from '../model/needs.js';

// The page behind the job card SMS link. The link's token authenticates the driver for this one
// offer, so until the job is theirs the page shows what the SMS already said (no passenger contact
// details) and answers through POST /api/driver/offers/:offerId/respond, which decides who gets
// the job. Once it is theirs: the passenger's name and phone, the trip's steps and the payment
// (each button calls the same API a driver app does). Its scripts: src/pages/browser/job-offer.ts
// and job-trip.ts.

const STEP_LABELS: Record<string, string> = {
  en_route: 'On my way',
  arrived: 'Arrived at pickup',
  on_board: 'Passenger on board',
  completed: 'Trip completed',
  no_show: 'Passenger did not come',
  drop: 'Give the job back',
};
const NEXT_STEPS: Partial<Record<string, string[]>> = {
  assigned: ['en_route', 'arrived', 'drop'],
  en_route: ['arrived', 'drop'],
  arrived: ['on_board', 'no_show', 'drop'],
  on_board: ['completed'],
};
const METHODS: Array<[string, string]> = [
  ['cash', 'Cash'],
  ['card', 'Card reader'],
  ['payment_link', 'My payment link'],
  ['bank_transfer', 'Bank transfer'],
  ['account', 'Account'],
];

/** The trip panel of a job that is this driver's: next steps, then settlement. */
function tripPanel(b: BookingWithDriver): SafeHtml {
  const steps = NEXT_STEPS[b.status] ?? [];
  // With the passenger on board, confirming the payment is the trip's last tap: it completes and settles it.
  const completes = b.status === 'on_board';
  const settle =
    (b.status === 'completed' && b.paid_pence === null) || completes
      ? html`<form id="payment" class="payment">
<h2>Payment received</h2>
${completes && html`<p>Confirming the payment also completes the trip.</p>`}
<label for="method">How did the passenger pay?</label>
<select id="method" name="method">${METHODS.map(([v, label]) => html`<option value="${v}">${label}</option>`)}</select>
<label for="amount">Amount received (£)</label>
<input id="amount" name="amount" type="number" inputmode="decimal" min="0" max="10000" step="0.01" value="${(b.fare_pence / 100).toFixed(2)}" required>
<label for="reason">If less than the fare, why</label>
<input id="reason" name="reason" type="text" maxlength="300" autocomplete="off">
<button type="submit">${completes ? 'Complete the trip and confirm payment' : 'Confirm payment'}</button>
</form>`
      : '';
  const paid =
    b.paid_method === NOTHING_DUE
      ? html`<p class="alert">Closed by Direct Taxi: nothing is due for this trip.</p>`
      : b.paid_pence !== null
        ? html`<p class="alert ok">Paid ${pounds(b.paid_pence)} (${(b.paid_method ?? '').replace(/_/g, ' ')}). Thank you.</p>`
        : '';
  return html`<div class="card" id="trip">
<p class="status">Trip: <strong>${tripWords(b.status)}</strong></p>
${steps.length > 0 && html`<div class="actions">${steps.map((e) => html`<button type="button" data-event="${e}"${e === 'drop' || e === 'no_show' ? html` class="decline"` : ''}>${STEP_LABELS[e]}</button>`)}</div>`}
${
  steps.includes('drop') &&
  html`<div id="drop-confirm" role="alertdialog" aria-labelledby="drop-question" hidden>
<p id="drop-question"><strong>Give job ${b.ref} back?</strong> You cannot undo this: the passenger gets another driver.</p>
<div class="actions"><button type="button" class="decline" id="drop-yes">Yes, give it back</button><button type="button" id="drop-no">Keep the job</button></div>
</div>`
}
${settle}${paid}
<p class="alert error" id="trip-outcome" role="status" hidden></p>
</div>`;
}

const pickupNote = (b: BookingWithDriver) => precisionNote(precisionOf(b.pickup));

function offerState(offer: OfferForPage, booking: BookingWithDriver): SafeHtml {
  switch (offer.status) {
    case 'offered':
      return html`<p class="status" id="offer-state">Reply within <span class="countdown" id="countdown"></span></p>`;
    case 'accepted':
      return booking.driver_id === offer.driver_id && booking.status !== 'cancelled'
        ? html`<p class="alert ok">You accepted this job. It is yours.</p>`
        : html`<p class="alert error">You accepted this job, but it is no longer assigned to you.</p>`;
    case 'declined':
      return html`<p class="alert">You declined this job.</p>`;
    case 'timed_out':
      return html`<p class="alert error">This offer has expired.</p>`;
    case 'withdrawn':
      // A group offer's card (docs/dispatch.md "Offer policy"): another driver of the group accepted first.
      return booking.driver_id !== null && booking.driver_id !== offer.driver_id && booking.status !== 'cancelled'
        ? html`<p class="alert error">Another driver took this job.</p>`
        : html`<p class="alert error">This job was withdrawn: the booking was cancelled or changed.</p>`;
  }
}

export function renderJobCardPage(opts: {
  offer: OfferForPage;
  booking: BookingWithDriver;
  token: string;
  now: Date;
}): Page {
  const { offer, booking: b, token, now } = opts;
  const open = offer.status === 'offered';
  // The job is this driver's: they see who they are collecting and drive the trip from here.
  const mine = offer.status === 'accepted' && b.driver_id === offer.driver_id && b.status !== 'cancelled';
  const secondsLeft = Math.max(0, Math.ceil((offer.expires_at.getTime() - now.getTime()) / 1000));
  // Until the job is theirs, the fare the card offered them (their own approved rate, where they
  // have one); once it is, the booking's fare in force, which is that fare unless re-priced since.
  const fare = mine ? b.fare_pence : (offer.fare_pence ?? b.fare_pence);
  const ownRate = fare !== (b.quoted_fare_pence ?? b.fare_pence);
  const body = html`<h1>Job ${b.ref}</h1>
<div class="card" id="job" data-offer-id="${offer.id}" data-token="${token}" data-seconds-left="${secondsLeft}">
${offerState(offer, b)}
<dl class="facts">
  <dt>Pickup</dt><dd>${londonDateTime(b.pickup_at)}</dd>
  ${mine && html`<dt>Passenger</dt><dd>${b.passenger_name}, <a href="tel:${b.passenger_phone}">${b.passenger_phone}</a></dd>`}
  <dt>From</dt><dd>${placeForPeople(b.pickup_query, b.pickup)}${pickupNote(b) && html` <strong class="warn">(${pickupNote(b)})</strong>`}</dd>
  <dt>To</dt><dd>${placeForPeople(b.dropoff_query, b.dropoff)}</dd>
  <dt>Passengers</dt><dd>${passengersLabel(b.passengers)}</dd>
  <dt>Vehicle</dt><dd>${vehicleNeeds(b.vehicle_type, b.wheelchair)}</dd>
  <dt>Fare</dt><dd><strong>${pounds(fare)}</strong> paid to you (${paymentLabel(b.payment_method).toLowerCase()})${ownRate && ', at your own approved rate'}</dd>
  ${b.flight_number && html`<dt>Flight</dt><dd>${b.flight_number}</dd>`}
  ${b.meet_and_greet && html`<dt>Meet and greet</dt><dd>Meet the passenger inside, in arrivals, with a name board</dd>`}
  ${passengerNeeds(b).map((n) => html`<dt>${n.label}</dt><dd>${n.text}</dd>`)}
  ${b.notes && html`<dt>Notes</dt><dd>${b.notes}</dd>`}
</dl>
</div>
${
  open &&
  html`<p class="alert" id="outcome" role="status" hidden></p>
<div class="actions" id="actions">
<button type="button" data-decision="accept">Accept</button>
<button type="button" class="decline" data-decision="decline">Decline</button>
</div>`
}
${mine && tripPanel(b)}`;
  return layout({
    title: `Job ${b.ref}`,
    body,
    script: open ? pageScript('job-offer') : mine ? pageScript('job-trip') : undefined,
  });
}

export function invalidJobLinkPage(): Page {
  return messagePage(
    403,
    'Link not valid',
    html`<p>This job link is not valid. Use the link exactly as it arrived in your text message.</p>`,
  );
}

export function jobNotFoundPage(): Page {
  return messagePage(404, 'Job not found', html`<p>This job is no longer available.</p>`);
}
