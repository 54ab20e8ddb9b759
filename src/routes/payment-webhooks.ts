import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ProblemError } from '../http/problem.js';
import { PAYMENT_METHODS } from '../../workflows/bookings/definitions.js';
import { BOOKING_REF_PATTERN } from '../bookings/identity.js';
import { settleBooking } from '../settlement/settle.js';
import { verifyWebhook } from '../settlement/webhook-signature.js';

// A payment provider tells us a passenger paid a driver (card reader, payment link): the same
// settlement as the driver's own confirmation, recorded as `provider`. Signed (Standard Webhooks);
// each delivery is processed once by its webhook-id.

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
      const check = verifyWebhook(secrets, { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') }, raw, Math.floor(Date.now() / 1000));
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
      const [claimed] = await s.sql`insert into payment_webhook_events (id, booking_ref, outcome) values (${id}, ${ref}, 'processing')
                                    on conflict (id) do nothing returning id`;
      if (!claimed) return reply.code(200).send({ received: true, duplicate: true });
      try {
        const record = await settleBooking(s, ref, { driverId: null, amountPence: event.data.amount_pence, method: event.data.method, by: 'provider', eventId: id });
        await s.sql`update payment_webhook_events set outcome = 'settled' where id = ${id}`;
        return reply.code(200).send({ received: true, duplicate: false, payment_record: record.id });
      } catch (err) {
        // Not settled: forget the delivery so the provider's retry is processed afresh.
        await s.sql`delete from payment_webhook_events where id = ${id}`;
        throw err;
      }
    },
  });
}
