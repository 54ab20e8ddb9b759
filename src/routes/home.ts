import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { BOOKING_REF_PATTERN } from '../model/bookings.js';
import { vehicleClass } from '../bookings/request/index.js';
import { findBooking } from '../bookings/store.js';
import { normalisePhone } from '../passengers/phone.js';
import { html } from '../pages/escape-html.js';
import {
  EMPTY_FIND,
  EMPTY_QUOTE,
  renderHomePage,
  VEHICLE_CHOICES,
  type FindFormValues,
  type QuoteFormValues,
} from '../pages/home-page.js';
import { messagePage } from '../pages/layout.js';
import { sendPage } from '../pages/send-page.js';
import { createQuote } from '../quotes/create-quote.js';
import { Refusal } from '../refusal.js';
import { VEHICLE_TYPES } from '../pricing/types.js';

// The front door (issue 23, item 5): `/` is a page, with a quote form that leads to the booking page
// the quote's own link opens, and "find my booking". Forms post here as forms (no script needed);
// every answer is a page: the next page by a 303, or this one again with the problem shown.

const FORM_LIMIT_BYTES = 4096;
const line = (max: number) => z.string().max(max).default('');
const QuoteForm = z.object({
  pickup: line(200),
  dropoff: line(200),
  when: line(40),
  passengers: line(2),
  vehicle: line(20),
});
const FindForm = z.object({ reference: line(40), contact: line(254) });

export async function homeRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  // A form that cannot be read is a typo or a forged post: a page either way, never JSON.
  app.setErrorHandler((err, request, reply) => {
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status === 429)
      return sendPage(
        reply,
        messagePage(
          429,
          'Please wait a moment',
          html`<p>Too many tries from here just now. Try again in a minute.</p>`,
        ),
      );
    if (status >= 500) {
      request.log.error({ err }, 'front door failed');
      return sendPage(reply, messagePage(500, 'Something went wrong', html`<p>Please try again in a moment.</p>`));
    }
    return sendPage(
      reply,
      messagePage(
        400,
        'Check what you typed',
        html`<p>Something in the form could not be used. <a href="/">Start again</a>.</p>`,
      ),
    );
  });

  r.get('/', {
    schema: { hide: true },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async (_request, reply) => sendPage(reply, renderHomePage()),
  });

  r.post('/', {
    schema: { hide: true, body: QuoteForm },
    config: { rateLimit: app.rateLimits.quoteForm },
    handler: async (request, reply) => {
      const values: QuoteFormValues = { ...EMPTY_QUOTE, ...request.body };
      const again = (problem: { message: string; field?: string; suggestions?: readonly string[] }, status = 422) =>
        sendPage(reply, renderHomePage({ quote: values, quoteProblem: problem, status }));
      if (values.pickup.trim().length < 2)
        return again({ field: 'pickup', message: 'Type where to pick you up.' }, 400);
      if (values.dropoff.trim().length < 2)
        return again({ field: 'dropoff', message: 'Type where you are going.' }, 400);
      const passengers = Number(values.passengers);
      if (!Number.isInteger(passengers) || passengers < 1 || passengers > 8)
        return again({ field: 'passengers', message: 'Choose 1 to 8 passengers.' }, 400);
      const named =
        values.vehicle === ''
          ? undefined
          : VEHICLE_TYPES.find((v) => v === values.vehicle && VEHICLE_CHOICES.some(([c]) => c === v));
      if (values.vehicle !== '' && !named)
        return again({ field: 'vehicle', message: 'Choose a vehicle from the list.' }, 400);
      const departAt = londonTime(values.when);
      if (departAt === null)
        return again(
          { field: 'when', message: 'Choose a date and time, or leave it empty for as soon as possible.' },
          400,
        );
      try {
        const quote = await createQuote(s, {
          contract: 'v1',
          pickup: values.pickup.trim(),
          dropoff: values.dropoff.trim(),
          ...(departAt ? { departAt } : {}),
          vehicleType: vehicleClass(named, passengers, { field: 'vehicle', tooSmall: 'refuse' }),
          passengers,
          meetAndGreet: false,
          worldwide: false,
          apiKey: null,
        });
        return reply.code(303).header('location', `/book/${quote.quoteId}`).send();
      } catch (err) {
        if (!(err instanceof Refusal) || err.kind === 'too_many') throw err;
        const field = err.fields[0]?.name;
        const suggestions = ((err.details.suggestions ?? []) as { label: string }[]).map((x) => x.label);
        return again({ message: err.message, ...(field ? { field } : {}), suggestions });
      }
    },
  });

  r.post('/find', {
    schema: { hide: true, body: FindForm },
    config: { rateLimit: app.rateLimits.lookup },
    handler: async (request, reply) => {
      const values: FindFormValues = { ...EMPTY_FIND, ...request.body };
      const reference = values.reference.trim().toUpperCase().replace(/\s+/g, '');
      const notFound = () =>
        sendPage(
          reply,
          renderHomePage({
            find: values,
            findProblem: {
              message:
                'No booking with that reference and that email or mobile number. Check both against the message we sent you.',
            },
            status: 404,
          }),
        );
      if (!BOOKING_REF_PATTERN.test(reference))
        return sendPage(
          reply,
          renderHomePage({
            find: values,
            findProblem: {
              field: 'reference',
              message: 'A booking reference is TX and eight to ten letters and digits.',
            },
            status: 400,
          }),
        );
      const booking = await findBooking(s.sql, reference);
      // The same answer whether the reference or the contact is wrong: a reference alone reveals nothing.
      if (!booking || !sameContact(values.contact, booking.passenger_email, booking.passenger_phone)) return notFound();
      return reply.code(303).header('location', `/track/${booking.ref}`).send();
    },
  });
}

/** `YYYY-MM-DDTHH:MM` in London as an ISO instant; undefined for empty (now); null when not a time. */
function londonTime(raw: string): string | undefined | null {
  if (raw.trim() === '') return undefined;
  const t = DateTime.fromISO(raw.trim(), { zone: 'Europe/London' });
  return t.isValid ? t.toUTC().toISO() : null;
}

/** The email or phone typed matches the booking's: emails ignoring case, phones read as every form reads them (E.164). */
export function sameContact(typed: string, email: string | null, phone: string | null): boolean {
  const t = typed.trim();
  if (t.includes('@')) return email !== null && email.toLowerCase() === t.toLowerCase();
  const read = normalisePhone(t, { allowDramaNumbers: true });
  return phone !== null && read.ok && read.e164 === phone;
}
