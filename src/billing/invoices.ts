import {
  invoiceReference,
  MIN_COLLECTION_PENCE,
  type Invoice,
  type InvoiceKey,
  weekStartOf,
} from '../model/billing.js';
import type { Services } from '../services.js';
import * as collections from './collection-store.js';
import type { PaymentProvider } from './payment-provider.js';
import { listInvoices } from './subscription-store.js';
import { listPartnerInvoices, type PartnerInvoice } from './partner-invoice-store.js';

// The invoices' use cases: the provider's webhook applied to an invoice, and the driver's and ops'
// views of what is owed. The collection workflow owns the invoice's state; the webhook reaches it
// as a signal, through its client (collection-client.ts).

const REFERENCE = /^invoice:(driver|partner):([A-Za-z0-9_-]{1,80}):(\d{4}-\d{2}-\d{2})$/;

/** The invoice an invoice reference (invoice:<kind>:<id>:<Monday's London date>) names, or null. */
export function invoiceKeyOf(reference: string | null): InvoiceKey | null {
  const m = reference ? REFERENCE.exec(reference) : null;
  if (!m) return null;
  // Noon on the Monday is inside its billing week whatever the clocks do.
  const monday = Date.parse(`${m[3]}T12:00:00Z`);
  if (Number.isNaN(monday)) return null;
  return {
    account: m[1] as InvoiceKey['account'],
    accountId: m[2]!,
    weekStart: new Date(weekStartOf(monday)).toISOString(),
  };
}

export type WebhookOutcome =
  | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' | 'invalid_event' | 'not_collecting' }
  | { ok: true; duplicate: boolean; applied: 'signalled' | 'marked_paid' | 'already_settled' | 'ignored' | 'not_kept' };

/**
 * Events kept per invoice besides its paying one: failed payments and payments short of the total,
 * each recorded for ops (`last_failure`). Stripe sends at most one such event per pay page, and an
 * invoice has at most four pay pages (COLLECTION_POLICY: the first and three reminders). Beyond
 * this, an event is acknowledged and neither kept nor applied.
 */
export const WEBHOOK_EVENTS_PER_INVOICE = 10;

/**
 * A delivery of the provider's webhook: verified (signature, timestamp), then applied once by its
 * provider's event id. A payment outcome goes to the invoice's collection workflow as a signal;
 * once that workflow has closed (it listens for COLLECTION_POLICY.followForDays), a payment marks
 * the invoice paid directly, under the same only-once rule.
 *
 * Once: the event is stored and applied in one transaction that holds the invoice's advisory lock,
 * so a second delivery of it (a replay, or the provider's retry while the first is still being
 * applied) waits, then finds it stored and is answered 200 `duplicate: true` without acting. If
 * applying fails, nothing is stored and the provider's retry applies it afresh. (The one gap: the
 * signal reached the workflow but the commit failed; the retry signals again. The workflow takes
 * one payment only, so a payment never applies twice; a repeated failure sets the same
 * last_failure again and logs it a second time.)
 *
 * Bounded: only events that act on an invoice this service is collecting are stored, at most one
 * paying event and WEBHOOK_EVENTS_PER_INVOICE others per invoice. Events of other types, naming no
 * invoice, an invoice not being collected, or one already paid (a second payment is logged for
 * ops: the payer may need a refund) are acknowledged and stored nowhere. Every stored row is
 * therefore one of at most 1 + WEBHOOK_EVENTS_PER_INVOICE per invoice_collections row, and those
 * are made by the service's own weekly billing, one per driver or partner and week.
 */
export async function applyBillingWebhook(
  s: Pick<Services, 'sql' | 'invoiceCollections'>,
  provider: PaymentProvider,
  headers: Record<string, string | undefined>,
  rawBody: string,
  nowSeconds: number,
  log: { warn(message: string): void } = console,
): Promise<WebhookOutcome> {
  const check = provider.parseWebhook(headers, rawBody, nowSeconds);
  if (!check.ok) return check;
  const e = check.event;
  const key = invoiceKeyOf(e.invoiceReference);
  if (e.outcome === 'ignored' || !key) return { ok: true, duplicate: false, applied: 'ignored' };
  const reference = invoiceReference(key);
  return s.sql.begin(async (tx): Promise<WebhookOutcome> => {
    // Held while the event is applied (a signal: milliseconds); a delivery waiting longer fails
    // with a 500, and the provider retries it.
    await tx`set local lock_timeout = '30s'`;
    await tx`select pg_advisory_xact_lock(hashtextextended(${`billing-webhook:${provider.name}:${reference}`}, 0))`;
    if (await collections.webhookEventSeen(tx, provider.name, e.eventId))
      return { ok: true, duplicate: true, applied: 'already_settled' };
    const c = await collections.findCollection(tx, key);
    if (!c) {
      log.warn(
        `billing webhook: ${provider.name} event ${e.eventId} names ${reference}, which is not being collected; acknowledged, not kept`,
      );
      return { ok: true, duplicate: false, applied: 'ignored' };
    }
    const pays = e.outcome === 'succeeded' && e.amountPence >= c.totalPence;
    const kept = await collections.storedWebhookEvents(tx, provider.name, reference);
    if (c.status === 'paid' || (pays && kept.paid > 0)) {
      if (pays)
        log.warn(
          `billing webhook: ${provider.name} event ${e.eventId} pays ${reference}, already paid by ${c.paidEventId ?? 'another event'}: a second payment (refund it?)`,
        );
      return { ok: true, duplicate: false, applied: 'already_settled' };
    }
    if (!pays && kept.others >= WEBHOOK_EVENTS_PER_INVOICE) {
      log.warn(
        `billing webhook: ${provider.name} event ${e.eventId} (${e.outcome}) for ${reference}: ${kept.others} events kept already; acknowledged, not kept`,
      );
      return { ok: true, duplicate: false, applied: 'not_kept' };
    }
    const outcome = pays ? 'paid' : e.outcome === 'failed' ? 'failed' : 'short';
    await collections.storeWebhookEvent(tx, {
      provider: provider.name,
      id: e.eventId,
      invoiceReference: reference,
      outcome,
    });
    // A failed attempt is on the record for ops either way; it changes nothing else.
    if (outcome !== 'paid') await collections.recordPaymentFailure(tx, key, e.eventId);
    const signal = {
      eventId: e.eventId,
      outcome: e.outcome === 'failed' ? 'failed' : 'succeeded',
      amountPence: e.amountPence,
      providerRef: e.providerRef,
    } as const;
    if (await s.invoiceCollections.payment(key, signal)) return { ok: true, duplicate: false, applied: 'signalled' };
    if (outcome !== 'paid') return { ok: true, duplicate: false, applied: 'ignored' };
    const marked = await collections.markPaid(tx, key, signal);
    return { ok: true, duplicate: false, applied: marked ? 'marked_paid' : 'already_settled' };
  });
}

export type InvoiceStatusShown = 'paid' | 'unpaid' | 'overdue' | 'nothing_due' | 'below_minimum' | 'not_collected';

export interface DriverInvoiceView extends Invoice {
  collection: {
    status: InvoiceStatusShown;
    payUrl: string | null;
    remindersSent: number;
    paidAt: string | null;
    overdueAt: string | null;
  };
}

/** The driver's invoices, newest first, each with its lines and whether it is paid. */
export async function driverInvoices(
  s: Pick<Services, 'sql'>,
  driverId: string,
  limit = 26,
): Promise<DriverInvoiceView[]> {
  const invoices = await listInvoices(s.sql, driverId, limit);
  const found = await collections.collectionsOf(
    s.sql,
    'driver',
    driverId,
    invoices.map((i) => new Date(i.weekStart)),
  );
  return invoices.map((i) => {
    const c = found.get(i.weekStart);
    const status: InvoiceStatusShown = c
      ? c.status
      : i.totalPence === 0
        ? 'nothing_due'
        : i.totalPence < MIN_COLLECTION_PENCE
          ? 'below_minimum'
          : 'not_collected'; // weeks billed before 0.4.0 collected invoices, or one whose collection is opening
    return {
      ...i,
      collection: {
        status,
        payUrl: c && c.status !== 'paid' ? c.payUrl : null,
        remindersSent: c?.remindersSent ?? 0,
        paidAt: c?.paidAt ?? null,
        overdueAt: c?.overdueAt ?? null,
      },
    };
  });
}

export interface PartnerInvoiceView extends PartnerInvoice {
  collection: { status: InvoiceStatusShown; payUrl: string | null; paidAt: string | null; overdueAt: string | null };
}

/** A partner's weekly invoices (SMS about its jobs), newest first, each with whether it is paid. */
export async function partnerInvoices(
  s: Pick<Services, 'sql'>,
  partnerId: string,
  limit = 26,
): Promise<PartnerInvoiceView[]> {
  const invoices = await listPartnerInvoices(s.sql, partnerId, { limit });
  const found = await collections.collectionsOf(
    s.sql,
    'partner',
    partnerId,
    invoices.map((i) => new Date(i.weekStart)),
  );
  return invoices.map((i) => {
    const c = found.get(i.weekStart);
    const status: InvoiceStatusShown = c
      ? c.status
      : i.totalPence === 0
        ? 'nothing_due'
        : i.totalPence < MIN_COLLECTION_PENCE
          ? 'below_minimum'
          : 'not_collected';
    return {
      ...i,
      collection: {
        status,
        payUrl: c && c.status !== 'paid' ? c.payUrl : null,
        paidAt: c?.paidAt ?? null,
        overdueAt: c?.overdueAt ?? null,
      },
    };
  });
}

/** Invoices owed, for ops: unpaid, overdue, or both ('open'). */
export async function openInvoices(
  s: Pick<Services, 'sql'>,
  status: 'unpaid' | 'overdue' | 'open',
): Promise<collections.OpenInvoiceRow[]> {
  return collections.openCollections(s.sql, status);
}
