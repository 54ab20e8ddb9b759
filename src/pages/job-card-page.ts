import type { BookingWithDriver } from '../bookings/store.js';
import { precisionNote, precisionOf } from '../geo/precision.js';
import { html, type SafeHtml } from './escape-html.js';
import { londonDateTime, passengersLabel, paymentLabel, pounds, vehicleLabel } from './format.js';
import { inlineAsset, layout, messagePage, type Page } from './layout.js';
import type { OfferRow as OfferForPage } from '../dispatch/store.js';

// The page behind the job card SMS link. The link's token authenticates the driver for this one
// offer, so the page shows what the SMS already said (no passenger contact details) and answers
// through POST /api/driver/offers/:offerId/respond, which decides who gets the job.


const JOB_SCRIPT = inlineAsset(`(() => {
  const job = document.getElementById('job');
  const actions = document.getElementById('actions');
  const state = document.getElementById('offer-state');
  const countdown = document.getElementById('countdown');
  const outcome = document.getElementById('outcome');
  const buttons = actions.querySelectorAll('button');
  // Counted from the seconds the server had left, not from its clock: a phone's clock may be off.
  const total = Number(job.dataset.secondsLeft);
  const start = performance.now();
  let timer = 0;
  const tick = () => {
    const left = Math.max(0, Math.ceil(total - (performance.now() - start) / 1000));
    countdown.textContent = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
    if (left === 0) {
      clearInterval(timer);
      // The buttons stay: the service decides, and says whether the job is still there.
      state.textContent = 'Time is up. The job may have gone to another driver.';
    }
  };
  const show = (kind, text) => {
    outcome.className = 'alert ' + kind;
    outcome.textContent = text;
    outcome.hidden = false;
  };
  const finish = (kind, text) => {
    clearInterval(timer);
    actions.hidden = true;
    state.hidden = true;
    show(kind, text);
  };
  if (countdown) {
    tick();
    timer = setInterval(tick, 250);
  }
  actions.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-decision]');
    if (!button) return;
    const decision = button.dataset.decision;
    for (const b of buttons) b.disabled = true;
    try {
      const res = await fetch('/api/driver/offers/' + encodeURIComponent(job.dataset.offerId) + '/respond', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision, token: job.dataset.token }),
      });
      const reply = await res.json().catch(() => null);
      const code = reply && reply.code;
      if (res.ok) {
        finish('ok', reply && reply.result === 'accepted' ? 'Job accepted. It is yours: be at the pickup on time.' : 'You declined this job.');
        return;
      }
      if (res.status === 409 || code === 'job_taken') return finish('error', 'Another driver took this job.');
      if (res.status === 410 || code === 'offer_expired') return finish('error', 'This offer has expired.');
      if (res.status === 403) return finish('error', 'This job link is not valid.');
      show('error', (reply && reply.detail) || 'Something went wrong. Please try again.');
    } catch {
      show('error', 'No connection. Check your signal and try again.');
    }
    for (const b of buttons) b.disabled = false;
  });
})();
`);

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
      return html`<p class="alert error">This job was withdrawn: the booking was cancelled or changed.</p>`;
  }
}

export function renderJobCardPage(opts: { offer: OfferForPage; booking: BookingWithDriver; token: string; now: Date }): Page {
  const { offer, booking: b, token, now } = opts;
  const open = offer.status === 'offered';
  const secondsLeft = Math.max(0, Math.ceil((offer.expires_at.getTime() - now.getTime()) / 1000));
  const body = html`<h1>Job ${b.ref}</h1>
<div class="card" id="job" data-offer-id="${offer.id}" data-token="${token}" data-seconds-left="${secondsLeft}">
${offerState(offer, b)}
<dl class="facts">
  <dt>Pickup</dt><dd>${londonDateTime(b.pickup_at)}</dd>
  <dt>From</dt><dd>${b.pickup.label}${pickupNote(b) && html` <strong class="warn">(${pickupNote(b)})</strong>`}</dd>
  <dt>To</dt><dd>${b.dropoff.label}</dd>
  <dt>Passengers</dt><dd>${passengersLabel(b.passengers)}</dd>
  <dt>Vehicle</dt><dd>${vehicleLabel(b.vehicle_type)}${b.wheelchair && ', wheelchair user'}</dd>
  <dt>Fare</dt><dd><strong>${pounds(b.fare_pence)}</strong> paid to you (${paymentLabel(b.payment_method).toLowerCase()})</dd>
  ${b.flight_number && html`<dt>Flight</dt><dd>${b.flight_number}</dd>`}
  ${b.meet_and_greet && html`<dt>Meet and greet</dt><dd>Meet the passenger inside, in arrivals, with a name board</dd>`}
  ${b.notes && html`<dt>Notes</dt><dd>${b.notes}</dd>`}
</dl>
</div>
${open && html`<p class="alert" id="outcome" role="status" hidden></p>
<div class="actions" id="actions">
<button type="button" data-decision="accept">Accept</button>
<button type="button" class="decline" data-decision="decline">Decline</button>
</div>`}`;
  return layout({ title: `Job ${b.ref}`, body, script: open ? JOB_SCRIPT : undefined });
}

export function invalidJobLinkPage(): Page {
  return messagePage(403, 'Link not valid', html`<p>This job link is not valid. Use the link exactly as it arrived in your text message.</p>`);
}

export function jobNotFoundPage(): Page {
  return messagePage(404, 'Job not found', html`<p>This job is no longer available.</p>`);
}
