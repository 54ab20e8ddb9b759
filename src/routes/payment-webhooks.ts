import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ProblemError } from '../http/problem.js';
import { BOOKING_REF_PATTERN, PAYMENT_METHODS, settlementKey } from '../model/bookings.js';
import { findPaymentRecord } from '../settlement/payments-store.js';
import { settleBooking } from '../settlement/settle.js';
import { verifyWebhook } from '../settlement/webhook-signature.js';

// A payment provider tells us a passenger paid a driver (card reader, payment link): the same
// settlement as the driver's own confirmation, recorded as `provider`. Signed (Standard Webhooks).
//
// Once: a booking is settled once whoever asks (its payment record's settlement key; the booking
// workflow takes the first settlement), so applying an event twice writes nothing twice. Its
// webhook-id is stored after it settled: a replay is answered 200 `duplicate: true` without
// settling again. A failed settlement stores nothing, so the provider's retry is applied afresh.
//
// Bounded (migration 00033): one event is stored per booking, the first that settled it. Another
// event for a booking that has one (a second event for the same payment) is answered with the
// booking's record and stored nowhere; one naming a booking that does not exist or is not completed
// is refused and stored nowhere. A flood of signed events stores at most one row per completed booking.

const PaymentEvent = z.object({
  type: z.literal('payment.succeeded'),
  data: z.object({
    booking_reference: z.string().regex(BOOKING_REF_PATTERN),
    amount_pence: z.number().int().min(0).max(1_000_000),
    method: z.enum(PAYMENT_METHODS),
  }),
});

export async function paymentWebhookRoutes(app: FastifyInstance): Promise<void> {
  const s = app.services;
  const secrets = s.config.PAYMENT_WEBHOOK_SECRETS.trim().split(/\s+/).filter(Boolean);
  // The signature covers the exact bytes sent, so this route reads the body as text.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/api/webhooks/payments', {
    schema: { hide: true },
    config: { rateLimit: app.rateLimits.driver },
    handler: async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const header = (name: string) => {
        const v = request.headers[name];
        return typeof v === 'string' ? v : undefined;
      };
      const check = verifyWebhook(
        secrets,
        { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') },
        raw,
        Math.floor(Date.now() / 1000),
      );
      if (!check.ok) {
        request.log.warn({ reason: check.reason }, 'payment webhook refused');
        throw new ProblemError(401, 'invalid_signature', 'The webhook signature is not valid.');
      }
      const id = header('webhook-id')!;
      let event: z.infer<typeof PaymentEvent>;
      try {
        event = PaymentEvent.parse(JSON.parse(raw));
      } catch {
        throw new ProblemError(400, 'invalid_event', 'Not a payment.succeeded event this service understands.');
      }
      const ref = event.data.booking_reference;
      const [seen] = await s.sql`select 1 from payment_webhook_events where id = ${id}`;
      if (seen) return reply.code(200).send({ received: true, duplicate: true });
      const [settledBy] = await s.sql<
        { id: string }[]
      >`select id from payment_webhook_events where booking_ref = ${ref}`;
      if (settledBy) {
        const record = await findPaymentRecord(s.sql, settlementKey(ref));
        request.log.warn(
          { event: id, settledBy: settledBy.id, booking: ref },
          'payment webhook: the booking was settled by an earlier event; not applied',
        );
        return reply
          .code(200)
          .send({ received: true, duplicate: false, ...(record ? { payment_record: record.id } : {}) });
      }
      const record = await settleBooking(s, ref, {
        driverId: null,
        amountPence: event.data.amount_pence,
        method: event.data.method,
        by: 'provider',
        eventId: id,
      });
      // Deliveries at once all reach here: the settlement is the one record either way, and one row
      // is kept. A delivery whose event another delivery of it stored first is told it was a duplicate.
      const [stored] =
        await s.sql`insert into payment_webhook_events (id, booking_ref, outcome) values (${id}, ${ref}, 'settled') on conflict do nothing returning id`;
      const duplicate = !stored && (await s.sql`select 1 from payment_webhook_events where id = ${id}`).length > 0;
      return reply.code(200).send({ received: true, duplicate, payment_record: record.id });
    },
  });
}
