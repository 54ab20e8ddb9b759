import { html, type SafeHtml } from './escape-html.js';
import { layout, type Page } from './layout.js';

// The front door (issue 23, item 5): what a passenger who types the service's address sees. Two
// plain forms, no script: a quote (which leads to the booking page the quote's link opens) and
// "find my booking". A form sent back with a problem is shown again as typed, the problem beside
// the field it is about.

export interface QuoteFormValues {
  pickup: string;
  dropoff: string;
  /** `YYYY-MM-DDTHH:MM`, London time, as a datetime-local input gives it; empty for now. */
  when: string;
  passengers: string;
  vehicle: string;
}

export interface FindFormValues {
  reference: string;
  contact: string;
}

export interface FormProblem {
  message: string;
  /** The form field it is about, when it is about one. */
  field?: string;
  /** Places the passenger may have meant. */
  suggestions?: readonly string[];
}

export const EMPTY_QUOTE: QuoteFormValues = { pickup: '', dropoff: '', when: '', passengers: '1', vehicle: '' };
export const EMPTY_FIND: FindFormValues = { reference: '', contact: '' };

/** The vehicle choices a passenger picks from (the v1 classes, in words). Empty: what the group needs. */
export const VEHICLE_CHOICES: readonly (readonly [string, string])[] = [
  ['', 'Any car that fits us'],
  ['saloon', 'Saloon (up to 4)'],
  ['estate', 'Estate (more luggage)'],
  ['6seater', '6-seater'],
  ['7seater', '7-seater'],
  ['mpv', 'People carrier (up to 8)'],
  ['executive', 'Executive'],
  ['wav', 'Wheelchair accessible'],
];

export function renderHomePage(
  opts: {
    quote?: QuoteFormValues;
    quoteProblem?: FormProblem;
    find?: FindFormValues;
    findProblem?: FormProblem;
    status?: number;
  } = {},
): Page {
  const q = opts.quote ?? EMPTY_QUOTE;
  const f = opts.find ?? EMPTY_FIND;
  const qp = opts.quoteProblem;
  const fp = opts.findProblem;
  const invalid = (p: FormProblem | undefined, field: string) =>
    p?.field === field ? html` aria-invalid="true" aria-describedby="${field}-error"` : html``;
  const fieldError = (p: FormProblem | undefined, field: string): SafeHtml =>
    p?.field === field ? html`<p class="field-error" id="${field}-error">${p.message}</p>` : html``;
  const formError = (p: FormProblem | undefined, id: string, choices: SafeHtml = html``): SafeHtml =>
    p
      ? html`<div class="alert error" role="alert" id="${id}"><p>${p.field ? 'Please check the form below.' : p.message}</p>${choices}</div>`
      : html``;
  const body = html`<h1>Book a licensed taxi</h1>
<p class="muted">Fares follow the council's published taxi tariff. You pay the driver directly.</p>
<section class="card" aria-labelledby="quote-heading">
<h2 id="quote-heading">Get a fare</h2>
${formError(qp, 'quote-error', suggestionChoices(q, qp))}
<form method="post" action="/" novalidate>
<label for="pickup">Pickup</label>
<input type="text" id="pickup" name="pickup" value="${q.pickup}" required maxlength="200" autocomplete="street-address"${invalid(qp, 'pickup')}>
<p class="hint">A street address with the house number, a postcode, a station or an airport.</p>
${fieldError(qp, 'pickup')}
<label for="dropoff">Drop-off</label>
<input type="text" id="dropoff" name="dropoff" value="${q.dropoff}" required maxlength="200"${invalid(qp, 'dropoff')}>
${fieldError(qp, 'dropoff')}
<label for="when">When (UK time)</label>
<input type="datetime-local" id="when" name="when" value="${q.when}"${invalid(qp, 'when')}>
<p class="hint">Leave empty for as soon as possible.</p>
${fieldError(qp, 'when')}
<label for="passengers">Passengers</label>
<select id="passengers" name="passengers"${invalid(qp, 'passengers')}>${[1, 2, 3, 4, 5, 6, 7, 8].map(
    (n) =>
      html`<option value="${String(n)}"${q.passengers === String(n) ? html` selected` : html``}>${String(n)}</option>`,
  )}</select>
${fieldError(qp, 'passengers')}
<label for="vehicle">Vehicle</label>
<select id="vehicle" name="vehicle"${invalid(qp, 'vehicle')}>${VEHICLE_CHOICES.map(
    ([value, label]) =>
      html`<option value="${value}"${q.vehicle === value ? html` selected` : html``}>${label}</option>`,
  )}</select>
${fieldError(qp, 'vehicle')}
<button type="submit">See the fare</button>
</form>
</section>
<section class="card" aria-labelledby="find-heading">
<h2 id="find-heading">Find my booking</h2>
${formError(fp, 'find-error')}
<form method="post" action="/find" novalidate>
<label for="reference">Booking reference</label>
<input type="text" id="reference" name="reference" value="${f.reference}" required maxlength="20" autocapitalize="characters" spellcheck="false"${invalid(fp, 'reference')}>
<p class="hint">It starts with TX, in the message we sent you.</p>
${fieldError(fp, 'reference')}
<label for="contact">The email or mobile number you booked with</label>
<input type="text" id="contact" name="contact" value="${f.contact}" required maxlength="254" autocomplete="email"${invalid(fp, 'contact')}>
${fieldError(fp, 'contact')}
<button type="submit">Find my booking</button>
</form>
</section>`;
  return layout({ status: opts.status ?? 200, title: 'Book a taxi', body });
}

/**
 * "Did you mean": each place offered is a button that sends the form again with it in the field
 * it is for, everything else as typed (plain forms: it works without script, as the page does).
 */
function suggestionChoices(q: QuoteFormValues, p: FormProblem | undefined): SafeHtml {
  const field = p?.field === 'pickup' || p?.field === 'dropoff' ? p.field : null;
  if (!p?.suggestions || p.suggestions.length === 0 || !field) return html``;
  const keep = (name: keyof QuoteFormValues, value: string) =>
    html`<input type="hidden" name="${name}" value="${value}">`;
  return html`<p>Did you mean:</p><ul class="suggestions">${p.suggestions.map(
    (s) =>
      html`<li><form method="post" action="/">${(Object.keys(q) as (keyof QuoteFormValues)[]).map((name) =>
        keep(name, name === field ? s : q[name]),
      )}<button type="submit" class="suggestion">${s}</button></form></li>`,
  )}</ul>`;
}
