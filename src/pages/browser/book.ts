// The booking form (src/pages/book-page.ts): the few details a booking still needs, sent to
// POST /api/public/bookings/create like any other client, so the API's validation and
// idempotency are the only ones there are.
import { $, $button, $form, replyJson, type Problem } from './dom.js';
import { bookingSentence } from './problems.js';
import { uuidV4 } from './uuid.js';

const form = $form('book');
const button = $button('submit');
const summary = $('form-error');
const buttonLabel = button.textContent;

type BookingProblem = Problem & { booking_reference?: unknown };

function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID exists only in secure contexts (https, localhost); getRandomValues everywhere.
  return uuidV4(crypto.getRandomValues(new Uint8Array(16)));
}

let key = newKey();
let keyBody: string | null = null;
let busy = false;

function clearErrors(): void {
  summary.hidden = true;
  summary.replaceChildren();
  for (const e of form.querySelectorAll('[data-error-for]')) e.textContent = '';
  for (const e of form.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
}

function link(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

function showProblem(problem: BookingProblem | null, status: number): void {
  const p = document.createElement('p');
  p.textContent = problem?.detail
    ? problem.detail
    : status === 0
      ? 'Could not reach Direct Taxi. Check your connection and try again.'
      : 'Something went wrong. Please try again.';
  summary.append(p);
  const unplaced: string[] = [];
  for (const e of Array.isArray(problem?.errors) ? problem.errors : []) {
    const field = String(e.field).replace(/^body\./, '');
    const slot = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(field)}"]`);
    if (!slot) {
      unplaced.push(`${String(e.field)}: ${String(e.message)}`);
      continue;
    }
    slot.textContent = bookingSentence(slot.dataset.label ?? '', String(e.message));
    form.querySelector(`[name="${CSS.escape(field)}"]`)?.setAttribute('aria-invalid', 'true');
  }
  if (unplaced.length > 0) {
    const ul = document.createElement('ul');
    for (const text of unplaced) {
      const li = document.createElement('li');
      li.textContent = text;
      ul.append(li);
    }
    summary.append(ul);
  }
  const ref = problem?.booking_reference;
  if (problem?.code === 'quote_already_redeemed' && typeof ref === 'string') {
    summary.append(link(`/track/${encodeURIComponent(ref)}`, `Track booking ${ref}`));
  } else if (problem?.code === 'quote_expired') {
    summary.append(link(location.pathname, 'Get a new price'));
  }
  summary.hidden = false;
  (form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? summary).focus();
}

async function book(): Promise<void> {
  const data = new FormData(form);
  const text = (name: string) => {
    const v = data.get(name);
    return typeof v === 'string' ? v : '';
  };
  const body: Record<string, string | boolean | undefined> = {
    quote_id: form.dataset.quoteId,
    passenger_name: text('passenger_name'),
    passenger_phone_whatsapp: text('passenger_phone_whatsapp'),
    payment_method: text('payment_method'),
  };
  // What the driver should know (never priced): sent only when ticked.
  if (data.get('assistance_dog') === 'yes') body.assistance_dog = true;
  if (data.get('help_finding_vehicle') === 'yes') body.help_finding_vehicle = true;
  const email = text('passenger_email').trim();
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
    const reply = await replyJson<BookingProblem & { status_url?: unknown; manage_token?: unknown }>(res);
    if (res.ok && reply && typeof reply.status_url === 'string') {
      // The manage token rides in the fragment: the tracking page offers to cancel with it, and
      // it is never sent to the server in a page request or a log line.
      const token = typeof reply.manage_token === 'string' ? `#t=${encodeURIComponent(reply.manage_token)}` : '';
      location.assign(reply.status_url + token);
      return;
    }
    showProblem(reply, res.status);
  } catch {
    showProblem(null, 0);
  }
  busy = false;
  button.disabled = false;
  button.textContent = buttonLabel;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!busy) void book();
});
