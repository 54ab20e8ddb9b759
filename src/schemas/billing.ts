import { z } from 'zod';

// The invoices as the driver app and ops read them (src/routes/billing.ts). Money in integer pence.

export const InvoiceLineSchema = z.object({
  kind: z.enum(['weekly_fee', 'sms', 'third_party_jobs', 'card_processing']),
  quantity: z.number().int(),
  unit_pence: z
    .number()
    .int()
    .nullable()
    .describe('Price of one; null where each costs a different amount (card fees are a percentage)'),
  amount_pence: z.number().int(),
  description: z.string(),
});

export const DriverInvoicesReply = z
  .object({
    invoices: z.array(
      z.object({
        week_start: z.string(),
        week_end: z.string(),
        earnings_pence: z.number().int(),
        total_pence: z.number().int(),
        status: z.enum(['billed', 'free']).describe('billed: the 20 GBP weekly fee applied (earnings above 500 GBP)'),
        lines: z.array(InvoiceLineSchema),
        payment: z.object({
          status: z.enum(['paid', 'unpaid', 'overdue', 'nothing_due', 'below_minimum', 'not_collected']),
          pay_url: z.string().nullable(),
          reminders_sent: z.number().int(),
          paid_at: z.string().nullable(),
          overdue_at: z.string().nullable(),
        }),
      }),
    ),
  })
  .meta({ id: 'DriverInvoices' });

export const OpsInvoicesQuery = z.object({
  status: z.enum(['unpaid', 'overdue', 'open']).default('open'),
});

export const OpsInvoicesReply = z
  .object({
    invoices: z.array(
      z.object({
        account: z.enum(['driver', 'partner']),
        account_id: z.string(),
        name: z.string(),
        phone: z.string().nullable(),
        week_start: z.string(),
        total_pence: z.number().int(),
        status: z.enum(['unpaid', 'overdue', 'paid']),
        reminders_sent: z.number().int(),
        overdue_at: z.string().nullable(),
        pay_url: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'OpsInvoices' });

export const BillingWebhookReply = z.object({ received: z.literal(true), duplicate: z.boolean() });

export const PartnerInvoicesReply = z
  .object({
    invoices: z.array(
      z.object({
        week_start: z.string(),
        week_end: z.string(),
        sms_count: z.number().int(),
        total_pence: z.number().int(),
        lines: z.array(InvoiceLineSchema),
        payment: z.object({
          status: z.enum(['paid', 'unpaid', 'overdue', 'nothing_due', 'below_minimum', 'not_collected']),
          pay_url: z.string().nullable(),
          paid_at: z.string().nullable(),
          overdue_at: z.string().nullable(),
        }),
      }),
    ),
  })
  .meta({ id: 'PartnerInvoices' });
