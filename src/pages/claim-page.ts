import { placeForPeople } from '../model/places.js';
import type { BookingWithDriver } from '../bookings/store.js';
import { html } from './escape-html.js';
import { londonDateTime } from './format.js';
import { layout, type Page } from './layout.js';

// The pages behind the link texted to a booking's phone (src/bookings/ownership.ts): see the trip,
// take charge of it (putting your own name and email on it), then track or cancel it.

function tripFacts(b: BookingWithDriver) {
  return html`<dl class="facts">
<dt>Booking</dt><dd>${b.ref}</dd>
<dt>Pickup</dt><dd>${londonDateTime(b.pickup_at)}</dd>
<dt>From</dt><dd>${placeForPeople(b.pickup_query, b.pickup)}</dd>
<dt>To</dt><dd>${placeForPeople(b.dropoff_query, b.dropoff)}</dd>
<dt>Status</dt><dd>${b.status.replace(/_/g, ' ')}</dd>
</dl>`;
}

export function claimPage(o: {
  token: string;
  booking: BookingWithDriver;
  name?: string;
  email?: string;
  error?: string;
  status?: number;
}): Page {
  return layout({
    status: o.status ?? 200,
    title: 'Your booking',
    body: html`<div class="card">
<h1>Is this your taxi?</h1>
${tripFacts(o.booking)}
</div>
<div class="card">
<h2>Take charge of it</h2>
<p>This booking was made with your phone number. Taking charge of it means only you can manage it from now on: any link or code given out for it before stops working, and the email and notes it was booked with are taken off it.</p>
<form method="post" action="/claim/${o.token}" novalidate>
<label for="name">Your name <span class="muted">(optional)</span></label>
<input type="text" id="name" name="name" autocomplete="name" maxlength="100" value="${o.name ?? ''}">
<label for="email">Your email <span class="muted">(optional: we email you a link to confirm it; it lets you look the booking up by email)</span></label>
<input type="email" id="email" name="email" autocomplete="email" maxlength="254" value="${o.email ?? ''}"
  aria-describedby="email-error"${o.error ? html` aria-invalid="true"` : ''}>
<p class="field-error" id="email-error" role="alert">${o.error ?? ''}</p>
<button type="submit">This is my booking</button>
</form>
</div>`,
  });
}

export function claimedPage(o: {
  booking: BookingWithDriver;
  manageToken: string;
  email?: string | null;
  confirmationSent?: boolean;
}): Page {
  const cancellable = !['cancelled', 'completed', 'no_show', 'on_board'].includes(o.booking.status);
  return layout({
    title: 'Booking is yours',
    body: html`<div class="card">
<h1>This booking is now yours</h1>
${tripFacts(o.booking)}
${
  o.email
    ? o.confirmationSent
      ? html`<p>We have emailed ${o.email} a link to confirm your address.</p>`
      : html`<p>We could not email ${o.email} a confirmation link just now; your manage code below works without it.</p>`
    : ''
}
<p><a href="/track/${o.booking.ref}">Track your taxi</a></p>
</div>
<div class="card">
<h2>Your manage code</h2>
<p>Keep this code private. With it you (or an assistant you give it to) can look this booking up and cancel it, until a day after pickup.</p>
<p><code>${o.manageToken}</code></p>
</div>
${
  cancellable
    ? html`<div class="card">
<h2>Cancel</h2>
<form method="post" action="/manage/${o.booking.ref}/cancel">
<input type="hidden" name="token" value="${o.manageToken}">
<label for="reason">Reason <span class="muted">(optional)</span></label>
<input type="text" id="reason" name="reason" maxlength="300">
<button type="submit" class="decline">Cancel this taxi</button>
</form>
</div>`
    : ''
}`,
  });
}

export function claimGonePage(): Page {
  return layout({
    status: 410,
    title: 'Link not valid',
    body: html`<div class="card"><h1>This link has been used or has expired</h1>
<p>Links to take charge of a booking work once, for 24 hours. If the taxi is yours, ask for a new link from the service you booked with, or book again.</p></div>`,
  });
}

export function cancelledPage(b: BookingWithDriver): Page {
  return layout({
    title: 'Cancelled',
    body: html`<div class="card"><h1>Taxi ${b.ref} is cancelled</h1>${tripFacts(b)}</div>`,
  });
}
