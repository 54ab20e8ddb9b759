import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiKeyStore } from '../auth/api-keys.js';
import { applyBillingWebhook, driverInvoices, openInvoices, partnerInvoices } from '../billing/invoices.js';
import { paymentProviderFromConfig } from '../billing/settings.js';
import { signedInDriver, staffMember } from '../plugins/auth.js';
import { authenticateSender } from '../partners/auth.js';
import { ProblemError, problemResponses } from '../http/problem.js';
import { renderOpsInvoicesPage } from '../pages/ops-invoices-page.js';
import { sendPage } from '../pages/send-page.js';
import {
  BillingWebhookReply,
  DriverInvoicesReply,
  OpsInvoicesQuery,
  OpsInvoicesReply,
  PartnerInvoicesReply,
} from '../schemas/billing.js';

// The drivers' invoices: the driver's own (lines, paid or not, the pay link), ops' list of what is
// owed (staff keys), and the payment provider's signed webhook that settles them (docs/billing.md).

export async function billingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = app.services;

  r.get('/api/driver/invoices', {
    schema: {
      operationId: 'driverInvoices',
      tags: ['driver app'],
      summary:
        "The signed-in driver's weekly invoices, newest first: each line, whether it is paid, and the link to pay it",
      response: { 200: DriverInvoicesReply, ...problemResponses(401, 429) },
    },
    config: { rateLimit: app.rateLimits.driver },
    handler: async (request) => {
      const me = await signedInDriver(s, request);
      const invoices = await driverInvoices(s, me.driverId);
      return {
        invoices: invoices.map((i) => ({
          week_start: i.weekStart,
          week_end: i.weekEnd,
          earnings_pence: i.earningsPence,
          total_pence: i.totalPence,
          status: i.status,
          lines: i.lines.map((l) => ({
            kind: l.kind,
            quantity: l.quantity,
            unit_pence: l.unitPence,
            amount_pence: l.amountPence,
            description: l.description,
          })),
          payment: {
            status: i.collection.status,
            pay_url: i.collection.payUrl,
            reminders_sent: i.collection.remindersSent,
            paid_at: i.collection.paidAt,
            overdue_at: i.collection.overdueAt,
          },
        })),
      };
    },
  });

  const keys = new ApiKeyStore(s.sql);
  r.get('/api/partner/invoices', {
    schema: {
      operationId: 'partnerInvoices',
      tags: ['partners'],
      summary:
        "The calling partner's weekly invoices (2p per SMS sent about its jobs), newest first, each line and whether it is paid, with the link to pay",
      security: [{ bearer: [] }, { apiKeyHeader: [] }],
      response: { 200: PartnerInvoicesReply, ...problemResponses(400, 401, 429) },
    },
    config: { rateLimit: app.rateLimits.partner },
    handler: async (request) => {
      const partner = await authenticateSender(s, request, Buffer.alloc(0), {
        kinds: ['partner', 'operator', 'supplier'],
        idHeaders: ['x-partner'],
        keys,
      });
      const invoices = await partnerInvoices(s, partner.id);
      return {
        invoices: invoices.map((i) => ({
          week_start: i.weekStart,
          week_end: i.weekEnd,
          sms_count: i.smsCount,
          total_pence: i.totalPence,
          lines: i.lines.map((l) => ({
            kind: l.kind,
            quantity: l.quantity,
            unit_pence: l.unitPence,
            amount_pence: l.amountPence,
            description: l.description,
          })),
          payment: {
            status: i.collection.status,
            pay_url: i.collection.payUrl,
            paid_at: i.collection.paidAt,
            overdue_at: i.collection.overdueAt,
          },
        })),
      };
    },
  });

  // The console page over it: a shell whose script calls the API with the staff key.
  app.get('/ops/invoices', {
    schema: { hide: true },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (_request, reply) => sendPage(reply, renderOpsInvoicesPage()),
  });

  r.get('/api/ops/invoices', {
    schema: {
      operationId: 'opsInvoices',
      tags: ['ops'],
      summary: 'Invoices owed: unpaid, overdue, or both (open, the default), oldest first',
      querystring: OpsInvoicesQuery,
      response: { 200: OpsInvoicesReply, ...problemResponses(400, 401, 429) },
    },
    config: { rateLimit: app.rateLimits.staff },
    handler: async (request) => {
      await staffMember(s, request);
      const rows = await openInvoices(s, request.query.status);
      return {
        invoices: rows.map((c) => ({
          account: c.account,
          account_id: c.accountId,
          name: c.name,
          phone: c.phone,
          week_start: c.weekStart,
          total_pence: c.totalPence,
          status: c.status,
          reminders_sent: c.remindersSent,
          overdue_at: c.overdueAt,
          pay_url: c.payUrl,
        })),
      };
    },
  });
}

/**
 * POST /api/webhooks/billing: the payment provider's events (Stripe: Stripe-Signature; the test
 * double: Standard Webhooks headers; BILLING_PAYMENT_PROVIDER=none: every delivery refused). Answered
 * as providers expect: 2xx once an event is taken (a replay too, so the provider stops retrying),
 * 400 for a signature, timestamp or body refused.
 * Registered on its own so that only it reads JSON bodies as the exact bytes signed.
 */
export async function billingWebhookRoutes(app: FastifyInstance): Promise<void> {
  const s = app.services;
  const provider = paymentProviderFromConfig(s.config);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/api/webhooks/billing', {
    // A Stripe event carries the whole Checkout Session: larger than the API's usual bodies.
    bodyLimit: 256 * 1024,
    schema: { hide: true, response: { 200: BillingWebhookReply } },
    config: { rateLimit: app.rateLimits.driver },
    handler: async (request) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const headers: Record<string, string | undefined> = {};
      for (const name of ['stripe-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const v = request.headers[name];
        headers[name] = typeof v === 'string' ? v : undefined;
      }
      const result = await applyBillingWebhook(s, provider, headers, raw, Math.floor(s.now().getTime() / 1000), {
        warn: (m) => request.log.warn(m),
      });
      if (!result.ok) {
        request.log.warn({ reason: result.reason }, 'billing webhook refused');
        if (result.reason === 'invalid_event')
          throw new ProblemError(400, 'invalid_event', 'Not an event this service understands.');
        throw new ProblemError(
          400,
          'invalid_signature',
          result.reason === 'stale_timestamp'
            ? 'The webhook timestamp is outside the five-minute tolerance.'
            : 'The webhook signature is not valid.',
        );
      }
      return { received: true as const, duplicate: result.duplicate };
    },
  });
}
