import { placeForPeople } from '../model/places.js';
import { html, type SafeHtml } from './escape-html.js';
import { londonDateTime, PAYMENT_METHODS, passengersLabel, pounds, vehicleLabel } from './format.js';
import { POSTCODE_EXAMPLE } from './browser/pickup-precision.js';
import { layout, messagePage, type Page } from './layout.js';
import { pageScript } from './page-scripts.js';
import { precisionOf, tooVagueForPickup, vagueWhere } from '../geo/precision.js';
import type { QuoteRow } from '../quotes/store.js';

/** The parts of a quote the booking page shows. */
export type QuoteForPage = Pick<
  QuoteRow,
  | 'id'
  | 'status'
  | 'pickup_query'
  | 'dropoff_query'
  | 'depart_at'
  | 'vehicle_type'
  | 'passengers'
  | 'meet_and_greet'
  | 'worldwide'
  | 'fare_pence'
  | 'expires_at'
  | 'booking_ref'
> & {
  pickup: { label: string; kind: string; precision?: string; town?: string | null; postcodeDistrict?: string | null };
  dropoff: { label: string };
};

// The page behind a quote's booking_url: the journey as quoted and the few details a booking
// still needs. It books through POST /api/public/bookings/create like any other client, so the
// API's validation and idempotency are the only ones there are.

/** A quote for a time that has passed is booked for "now" by the API; say so rather than show a past time. */
function pickupText(q: QuoteForPage, now: Date): string {
  return q.depart_at.getTime() <= now.getTime() ? 'As soon as possible' : londonDateTime(q.depart_at);
}

function journey(q: QuoteForPage, now: Date): SafeHtml {
  return html`<dl class="facts">
  <dt>From</dt><dd>${placeForPeople(q.pickup_query, q.pickup)}</dd>
  <dt>To</dt><dd>${placeForPeople(q.dropoff_query, q.dropoff)}</dd>
  <dt>Pickup</dt><dd>${pickupText(q, now)}</dd>
  <dt>Vehicle</dt><dd>${vehicleLabel(q.vehicle_type)}, ${passengersLabel(q.passengers)}</dd>
  ${q.meet_and_greet && html`<dt>Extras</dt><dd>Airport meet and greet</dd>`}
</dl>`;
}

function field(opts: {
  name: string;
  label: string;
  type: string;
  autocomplete: string;
  maxlength: number;
  required: boolean;
  hint?: string;
  placeholder?: string;
}): SafeHtml {
  const describedBy = [opts.hint ? `${opts.name}-hint` : '', `${opts.name}-error`].filter(Boolean).join(' ');
  return html`<label for="${opts.name}">${opts.label}${!opts.required && html` <span class="muted">(optional)</span>`}</label>
<input id="${opts.name}" name="${opts.name}" type="${opts.type}" autocomplete="${opts.autocomplete}" maxlength="${opts.maxlength}"${opts.type === 'tel' && html` inputmode="tel"`}${opts.placeholder && html` placeholder="${opts.placeholder}"`}${opts.required && html` required`} aria-describedby="${describedBy}">
${opts.hint && html`<p class="hint" id="${opts.name}-hint">${opts.hint}</p>`}
<p class="field-error" id="${opts.name}-error" data-error-for="${opts.name}" data-label="${opts.label}"></p>`;
}

function bookingForm(q: QuoteForPage, now: Date): Page {
  const fare = pounds(q.fare_pence);
  const body = html`<h1>Book your taxi</h1>
<div class="card">
${journey(q, now)}
<p class="fare">${fare} <span class="muted">paid to your driver</span></p>
<p class="hint">This price is held until ${londonDateTime(q.expires_at)}.</p>
</div>
<form id="book" data-quote-id="${q.id}" novalidate>
<div class="card">
<h2>Your details</h2>
${field({ name: 'passenger_name', label: 'Name', type: 'text', autocomplete: 'name', maxlength: 100, required: true })}
${field({
  name: 'passenger_phone_whatsapp',
  label: 'Mobile number',
  type: 'tel',
  autocomplete: 'tel',
  maxlength: 32,
  required: true,
  placeholder: '07400 123456',
  hint: "A UK number as you would dial it at home, or + and the country code for any other. Your driver's details come here by WhatsApp or text.",
})}
${field({ name: 'passenger_email', label: 'Email', type: 'email', autocomplete: 'email', maxlength: 254, required: false })}
<fieldset aria-describedby="payment_method-error">
<legend>How you will pay the driver</legend>
${PAYMENT_METHODS.map(
  (m, i) =>
    html`<label class="choice"><input type="radio" name="payment_method" value="${m.value}"${i === 0 && html` checked`}> ${m.label}</label>`,
)}
</fieldset>
<p class="field-error" id="payment_method-error" data-error-for="payment_method" data-label="Payment method"></p>
</div>
<div class="card">
<fieldset aria-describedby="needs-hint">
<legend>Anything your driver should know? <span class="muted">(optional)</span></legend>
<label class="choice"><input type="checkbox" name="assistance_dog" value="yes"> I travel with an assistance dog</label>
<label class="choice"><input type="checkbox" name="help_finding_vehicle" value="yes"> Please help me find the car when it arrives</label>
</fieldset>
<p class="hint" id="needs-hint">Your driver is told before they accept. Neither ever costs more${q.vehicle_type === 'wav' ? '' : '; for a wheelchair-accessible vehicle, choose it when you get your price'}.</p>
</div>
<div class="alert error" id="form-error" role="alert" tabindex="-1" hidden></div>
<button type="submit" id="submit">Book for ${fare}</button>
</form>`;
  return layout({ title: 'Book your taxi', body, script: pageScript('book') });
}

// A pickup known only as a town centre (or a postcode district) is not a place to send a driver:
// the page asks plainly for a full postcode or a house number and street, and re-quotes with the
// answer until it is precise enough (src/pages/browser/book-refine.ts). An expired price is quoted
// again for the same trip (book-requote.ts); the booking form is book.ts. The trip they quote is
// in the data- attributes of the form or button.

/** Only a town centre or a postcode district: the driver would not know where to stop. */
function needsDetail(q: QuoteForPage): boolean {
  return tooVagueForPickup(precisionOf(q.pickup));
}

function refinePage(q: QuoteForPage, now: Date): Page {
  const departAt = q.depart_at.getTime() > now.getTime() + 10 * 60_000 ? q.depart_at.toISOString() : '';
  const precision = precisionOf(q.pickup);
  const body = html`<h1>Where exactly?</h1>
<div class="card">
${journey(q, now)}
<p>We can only find ${vagueWhere({ ...q.pickup, precision, postcode_district: q.pickup.postcodeDistrict })} from your pickup, which is not enough for a driver to find you.</p>
<form id="refine" data-typed="${q.pickup_query}" data-dropoff="${q.dropoff_query}" data-vehicle-type="${q.vehicle_type}" data-passengers="${q.passengers}" data-meet-and-greet="${String(q.meet_and_greet)}" data-worldwide="${String(q.worldwide)}" data-depart-at="${departAt}" data-town="${q.pickup.town ?? ''}" data-label="${q.pickup.label}" data-precision="${precision}" data-district="${q.pickup.postcodeDistrict ?? ''}" novalidate>
<label for="pickup_detail">Full postcode, or house number and street</label>
<input id="pickup_detail" name="pickup_detail" type="text" autocomplete="street-address" maxlength="150" required placeholder="e.g. ${POSTCODE_EXAMPLE}, or 1 Deansgate" aria-describedby="pickup_detail-hint refine-error">
<p class="hint" id="pickup_detail-hint">A station, hotel or hospital by name works too.</p>
<button type="submit" id="find">Find this pickup</button>
</form>
<p class="alert error" id="refine-error" role="alert" hidden></p>
<div id="suggestions" class="suggestions"></div>
</div>`;
  return layout({ title: 'Where exactly?', body, script: pageScript('book-refine') });
}

function expiredPage(q: QuoteForPage, now: Date): Page {
  // A future pickup keeps its time; one that has passed is re-quoted for now.
  const departAt = q.depart_at.getTime() > now.getTime() + 10 * 60_000 ? q.depart_at.toISOString() : '';
  const body = html`<div class="card">
<h1>This price has expired</h1>
<p>Quoted prices are held for a limited time (this one until ${londonDateTime(q.expires_at)}), because fares depend on when you travel.</p>
${journey(q, now)}
<button type="button" id="requote" data-pickup="${q.pickup_query}" data-dropoff="${q.dropoff_query}" data-vehicle-type="${q.vehicle_type}" data-passengers="${q.passengers}" data-meet-and-greet="${String(q.meet_and_greet)}" data-worldwide="${String(q.worldwide)}" data-depart-at="${departAt}">Get a new price for this journey</button>
<p class="alert error" id="requote-error" role="alert" hidden></p>
</div>`;
  return layout({ status: 410, title: 'Price expired', body, script: pageScript('book-requote') });
}

// A quote link is shared (it is in the quote's reply, a chat, a browser's history): holding it says
// nothing of who booked. A spent quote's page names no booking, no reference and no tracking link
// (issue 37 item 4); the passenger has their own confirmation and tracking links.
function redeemedPage(_q: QuoteForPage): Page {
  return messagePage(
    200,
    'Already booked',
    html`<p>This quote has already been used for a booking. The passenger has the confirmation and tracking link; to book another ride, <a href="/">get a new price</a>.</p>`,
  );
}

export function quoteNotFoundPage(): Page {
  return messagePage(
    404,
    'Quote not found',
    html`<p>There is no quote at this address. Check the link you were sent, or ask for a new quote.</p>`,
  );
}

export function renderQuotePage(q: QuoteForPage | null, now: Date): Page {
  if (!q) return quoteNotFoundPage();
  if (q.status === 'redeemed') return redeemedPage(q);
  // The quote workflow marks expiry a moment after the fact; the clock is what counts.
  if (q.status === 'expired' || q.expires_at.getTime() <= now.getTime()) return expiredPage(q, now);
  return needsDetail(q) ? refinePage(q, now) : bookingForm(q, now);
}
