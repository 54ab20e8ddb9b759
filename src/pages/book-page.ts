import { html, type SafeHtml } from './escape-html.js';
import { londonDateTime, PAYMENT_METHODS, passengersLabel, pounds, vehicleLabel } from './format.js';
import { inlineAsset, layout, messagePage, type Page } from './layout.js';
import { precisionOf } from '../geo/precision.js';
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

const BOOK_SCRIPT = inlineAsset(`(() => {
  const form = document.getElementById('book');
  const button = document.getElementById('submit');
  const summary = document.getElementById('form-error');
  const buttonLabel = button.textContent;
  const newKey = () => {
    if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
    // randomUUID exists only in secure contexts (https, localhost); getRandomValues everywhere.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  };
  let key = newKey();
  let keyBody = null;
  let busy = false;

  const clearErrors = () => {
    summary.hidden = true;
    summary.replaceChildren();
    for (const el of form.querySelectorAll('[data-error-for]')) el.textContent = '';
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  };
  const sentence = (label, message) =>
    /^(is|must) /.test(message) ? label + ' ' + message : message.charAt(0).toUpperCase() + message.slice(1);
  const showProblem = (problem, status) => {
    const p = document.createElement('p');
    p.textContent = problem && problem.detail ? problem.detail
      : status === 0 ? 'Could not reach Direct Taxi. Check your connection and try again.'
      : 'Something went wrong. Please try again.';
    summary.append(p);
    const unplaced = [];
    for (const e of (problem && Array.isArray(problem.errors) ? problem.errors : [])) {
      const field = String(e.field).replace(/^body\\./, '');
      const slot = form.querySelector('[data-error-for="' + CSS.escape(field) + '"]');
      if (!slot) { unplaced.push(String(e.field) + ': ' + String(e.message)); continue; }
      slot.textContent = sentence(slot.dataset.label, String(e.message));
      const input = form.querySelector('[name="' + CSS.escape(field) + '"]');
      if (input) input.setAttribute('aria-invalid', 'true');
    }
    if (unplaced.length > 0) {
      const ul = document.createElement('ul');
      for (const text of unplaced) { const li = document.createElement('li'); li.textContent = text; ul.append(li); }
      summary.append(ul);
    }
    const ref = problem && problem.booking_reference;
    if (problem && problem.code === 'quote_already_redeemed' && typeof ref === 'string') {
      const a = document.createElement('a');
      a.href = '/track/' + encodeURIComponent(ref);
      a.textContent = 'Track booking ' + ref;
      summary.append(a);
    } else if (problem && problem.code === 'quote_expired') {
      const a = document.createElement('a');
      a.href = location.pathname;
      a.textContent = 'Get a new price';
      summary.append(a);
    }
    summary.hidden = false;
    const firstInvalid = form.querySelector('[aria-invalid="true"]');
    (firstInvalid || summary).focus();
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    const data = new FormData(form);
    const body = {
      quote_id: form.dataset.quoteId,
      passenger_name: String(data.get('passenger_name') || ''),
      passenger_phone_whatsapp: String(data.get('passenger_phone_whatsapp') || ''),
      payment_method: String(data.get('payment_method') || ''),
    };
    const email = String(data.get('passenger_email') || '').trim();
    if (email) body.passenger_email = email;
    const json = JSON.stringify(body);
    // The same submission again (double click, retry after a lost reply) keeps its key and so makes
    // one booking; a corrected form is a different request, which the API requires a new key for.
    if (keyBody !== null && keyBody !== json) key = newKey();
    keyBody = json;
    busy = true;
    button.disabled = true;
    button.textContent = 'Booking…';
    clearErrors();
    try {
      const res = await fetch('/api/public/bookings/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: json,
      });
      const reply = await res.json().catch(() => null);
      if (res.ok && reply && typeof reply.status_url === 'string') {
        // The manage token rides in the fragment: the tracking page offers to cancel with it, and
        // it is never sent to the server in a page request or a log line.
        location.assign(reply.status_url + (typeof reply.manage_token === 'string' ? '#t=' + encodeURIComponent(reply.manage_token) : ''));
        return;
      }
      showProblem(reply, res.status);
    } catch {
      showProblem(null, 0);
    }
    busy = false;
    button.disabled = false;
    button.textContent = buttonLabel;
  });
})();
`);

// Both ways of pricing the trip again (a new price for an expired quote, a more exact pickup) ask
// for a quote with the page's trip and go to its booking page once it is priced (and, when `accept`
// is given, only if it accepts the priced reply); otherwise they have the API's reply (null when it
// was not JSON) to show.
const QUOTE_AGAIN = `async function quoteAgain(d, pickup, accept) {
    const body = {
      pickup: pickup,
      dropoff: d.dropoff,
      vehicleType: d.vehicleType,
      passengers: Number(d.passengers),
      meetAndGreet: d.meetAndGreet === 'true',
      worldwide: d.worldwide === 'true',
    };
    if (d.departAt) body.departAt = d.departAt;
    const res = await fetch('/api/public/v1/quote', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const reply = await res.json().catch(() => null);
    if (res.ok && reply && typeof reply.booking_url === 'string' && (!accept || accept(reply))) {
      location.assign(reply.booking_url);
      return { priced: true, reply };
    }
    return { priced: false, reply };
  }`;

const REQUOTE_SCRIPT = inlineAsset(`(() => {
  ${QUOTE_AGAIN}
  const button = document.getElementById('requote');
  const error = document.getElementById('requote-error');
  button.addEventListener('click', async () => {
    const d = button.dataset;
    button.disabled = true;
    error.hidden = true;
    try {
      const { priced, reply } = await quoteAgain(d, d.pickup);
      if (priced) return;
      error.textContent = (reply && reply.detail) || 'Could not get a new price. Please try again.';
    } catch {
      error.textContent = 'Could not reach Direct Taxi. Check your connection and try again.';
    }
    error.hidden = false;
    button.disabled = false;
  });
})();
`);

/** A quote for a time that has passed is booked for "now" by the API; say so rather than show a past time. */
function pickupText(q: QuoteForPage, now: Date): string {
  return q.depart_at.getTime() <= now.getTime() ? 'As soon as possible' : londonDateTime(q.depart_at);
}

function journey(q: QuoteForPage, now: Date): SafeHtml {
  return html`<dl class="facts">
  <dt>From</dt><dd>${q.pickup.label}</dd>
  <dt>To</dt><dd>${q.dropoff.label}</dd>
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
<div class="alert error" id="form-error" role="alert" tabindex="-1" hidden></div>
<button type="submit" id="submit">Book for ${fare}</button>
</form>`;
  return layout({ title: 'Book your taxi', body, script: BOOK_SCRIPT });
}

// A pickup known only as a town centre (or a postcode district) is not a place to send a driver:
// the page asks plainly for a full postcode or a house number and street, and re-quotes with the
// answer. It moves on (to the new quote's booking page) only once the answer is precise enough; an
// answer that comes back as vague as before (the same place, or no closer) is said to be so, with
// what to add, instead of showing the same step again. The API's suggestions are offered when it is
// unsure, leaving out every place this page has already called too vague. Every text is set with
// textContent.
const VAGUE_PRECISIONS = ['town_centre', 'postcode_district'];
/** Closest to the door first (src/geo/types.ts). */
const PRECISION_ORDER = ['point', 'postcode', 'street', 'postcode_sector', 'postcode_district', 'town_centre'];
const POSTCODE_EXAMPLE = 'M14 5TP';

/** "the centre of Manchester", "the postcode district M14": what a vague answer finds, in words. */
function vagueWhere(p: {
  label: string;
  precision: string;
  town?: string | null;
  postcodeDistrict?: string | null;
}): string {
  return p.precision === 'postcode_district'
    ? `the postcode district ${p.postcodeDistrict ?? p.label}`
    : `the centre of ${p.town ?? p.label}`;
}

const REFINE_SCRIPT = inlineAsset(`(() => {
  ${QUOTE_AGAIN}
  const VAGUE = ${JSON.stringify(VAGUE_PRECISIONS)};
  const ORDER = ${JSON.stringify(PRECISION_ORDER)};
  const ADD = 'add the full postcode, e.g. ${POSTCODE_EXAMPLE}, or a house number and street';
  const form = document.getElementById('refine');
  const input = document.getElementById('pickup_detail');
  const error = document.getElementById('refine-error');
  const list = document.getElementById('suggestions');
  const button = document.getElementById('find');
  const d = form.dataset;
  const rank = (precision) => { const i = ORDER.indexOf(precision); return i < 0 ? ORDER.length : i; };
  const key = (label) => String(label || '').trim().toLowerCase();
  // The answer the page stands at, and every place it has called too vague: never offered again.
  let current = { label: d.label, precision: d.precision, town: d.town || null, postcode_district: d.district || null };
  const tooVague = new Set([key(d.label)]);
  const where = (p) => p.precision === 'postcode_district'
    ? 'the postcode district ' + (p.postcode_district || p.label)
    : 'the centre of ' + (p.town || p.label);
  const say = (text) => { error.textContent = text; error.hidden = false; };
  // A full postcode stands on its own; anything else is looked for in the pickup's town, once.
  const FULL_POSTCODE = /^[A-Za-z]{1,2}[0-9][A-Za-z0-9]? ?[0-9][A-Za-z]{2}$/;
  const withTown = (detail) =>
    !d.town || FULL_POSTCODE.test(detail) || key(detail).includes(key(d.town)) ? detail : detail + ', ' + d.town;
  async function requote(pickup) {
    error.hidden = true;
    list.replaceChildren();
    button.disabled = true;
    try {
      const { priced, reply } = await quoteAgain(d, pickup, (r) => !(r.pickup && VAGUE.includes(r.pickup.precision)));
      if (priced) return;
      const found = reply && reply.pickup && typeof reply.pickup.label === 'string' ? reply.pickup : null;
      if (found) {
        // Priced, but no nearer the door than a driver can use.
        const closer = rank(found.precision) < rank(current.precision) && key(found.label) !== key(current.label);
        tooVague.add(key(found.label));
        say(closer
          ? 'That only narrows it to ' + where(found) + ': ' + ADD + '.'
          : 'That still only finds ' + where(found) + ': ' + ADD + '.');
        if (closer) current = found;
        input.focus();
        return;
      }
      const offered = (reply && Array.isArray(reply.suggestions) ? reply.suggestions : [])
        .filter((s) => s && typeof s.label === 'string' && !tooVague.has(key(s.label)) && !VAGUE.includes(s.precision));
      for (const s of offered) {
        const choice = document.createElement('button');
        choice.type = 'button';
        choice.className = 'suggestion';
        choice.textContent = s.label + (s.town && !key(s.label).includes(key(s.town)) ? ' (' + s.town + ')' : '');
        choice.addEventListener('click', () => requote(s.label));
        list.append(choice);
      }
      if (offered.length > 0) say('We are not sure which place you mean. Did you mean one of these? If not, ' + ADD + '.');
      else if (reply && reply.code === 'address_uncertain') say('We could not place that any closer than ' + where(current) + ': ' + ADD + '.');
      else if (!reply || reply.code === 'address_not_found') say('We could not find that place: try the full postcode, e.g. ${POSTCODE_EXAMPLE}, or a house number and street.');
      // Anything else (too many tries, a trip we cannot price) is the API's to say.
      else say(reply.detail || 'Could not get a price. Please try again.');
    } catch {
      say('Could not reach Direct Taxi. Check your connection and try again.');
    } finally {
      button.disabled = false;
    }
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const detail = input.value.trim();
    if (!detail) {
      say('Type the full postcode, e.g. ${POSTCODE_EXAMPLE}, or a house number and street.');
      input.focus();
      return;
    }
    requote(withTown(detail));
  });
})();
`);

/** Only a town centre or a postcode district: the driver would not know where to stop. */
function needsDetail(q: QuoteForPage): boolean {
  return VAGUE_PRECISIONS.includes(precisionOf(q.pickup));
}

function refinePage(q: QuoteForPage, now: Date): Page {
  const departAt = q.depart_at.getTime() > now.getTime() + 10 * 60_000 ? q.depart_at.toISOString() : '';
  const precision = precisionOf(q.pickup);
  const body = html`<h1>Where exactly?</h1>
<div class="card">
${journey(q, now)}
<p>We can only find ${vagueWhere({ ...q.pickup, precision })} from your pickup, which is not enough for a driver to find you.</p>
<form id="refine" data-dropoff="${q.dropoff_query}" data-vehicle-type="${q.vehicle_type}" data-passengers="${q.passengers}" data-meet-and-greet="${String(q.meet_and_greet)}" data-worldwide="${String(q.worldwide)}" data-depart-at="${departAt}" data-town="${q.pickup.town ?? ''}" data-label="${q.pickup.label}" data-precision="${precision}" data-district="${q.pickup.postcodeDistrict ?? ''}" novalidate>
<label for="pickup_detail">Full postcode, or house number and street</label>
<input id="pickup_detail" name="pickup_detail" type="text" autocomplete="street-address" maxlength="150" required placeholder="e.g. ${POSTCODE_EXAMPLE}, or 1 Deansgate" aria-describedby="pickup_detail-hint refine-error">
<p class="hint" id="pickup_detail-hint">A station, hotel or hospital by name works too.</p>
<button type="submit" id="find">Find this pickup</button>
</form>
<p class="alert error" id="refine-error" role="alert" hidden></p>
<div id="suggestions" class="suggestions"></div>
</div>`;
  return layout({ title: 'Where exactly?', body, script: REFINE_SCRIPT });
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
  return layout({ status: 410, title: 'Price expired', body, script: REQUOTE_SCRIPT });
}

function redeemedPage(q: QuoteForPage): Page {
  return messagePage(
    200,
    'Already booked',
    q.booking_ref
      ? html`<p>This quote has been used for booking <strong>${q.booking_ref}</strong>.</p>
<p><a href="/track/${encodeURIComponent(q.booking_ref)}">Track your taxi</a></p>`
      : html`<p>This quote has already been used for a booking.</p>`,
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
