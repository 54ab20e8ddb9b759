import { WorkflowNotFoundError } from '@temporalio/client';
import {
  invoiceCollectionWorkflowId,
  invoicePaymentSignal,
  MIN_COLLECTION_PENCE,
  type Invoice,
  type InvoiceKey,
} from '../../workflows/billing/definitions.js';
import { weekStartOf } from '../../workflows/billing/weeks.js';
import type { Services } from '../services.js';
import * as collections from './collection-store.js';
import type { PaymentProvider } from './payment-provider.js';
import { listInvoices } from './subscription-store.js';
import { listPartnerInvoices, type PartnerInvoice } from './partner-invoice-store.js';

// The invoices' use cases: the provider's webhook applied to an invoice, and the driver's and ops'
// views of what is owed. The collection workflow owns the invoice's state; the webhook reaches it
// as a signal.

const REFERENCE = /^invoice:(driver|partner):([A-Za-z0-9_-]{1,80}):(\d{4}-\d{2}-\d{2})$/;

/** The invoice an invoice reference (invoice:<kind>:<id>:<Monday's London date>) names, or null. */
export function invoiceKeyOf(reference: string | null): InvoiceKey | null {
  const m = reference ? REFERENCE.exec(reference) : null;
  if (!m) return null;
  // Noon on the Monday is inside its billing week whatever the clocks do.
  const monday = Date.parse(`${m[3]}T12:00:00Z`);
  if (Number.isNaN(monday)) return null;
  return { account: m[1] as InvoiceKey['account'], accountId: m[2]!, weekStart: new Date(weekStartOf(monday)).toISOString() };
}

export type WebhookOutcome =
  | { ok: false; reason: 'missing_headers' | 'stale_timestamp' | 'bad_signature' | 'invalid_event' }
  | { ok: true; duplicate: boolean; applied: 'signalled' | 'marked_paid' | 'already_settled' | 'ignored' };

/**
 * A delivery of the provider's webhook: verified (signature, timestamp), then processed once by its
 * event id. A payment outcome goes to the invoice's collection workflow as a signal; once that
 * workflow has closed (it listens for COLLECTION_POLICY.followForDays), a payment marks the invoice
 * paid directly, under the same only-once rule.
 */
export async function applyBillingWebhook(
  s: Pick<Services, 'sql' | 'temporal'>,
  provider: PaymentProvider,
  headers: Record<string, string | undefined>,
  rawBody: string,
  nowSeconds: number,
): Promise<WebhookOutcome> {
  const check = provider.parseWebhook(headers, rawBody, nowSeconds);
  if (!check.ok) return check;
  const e = check.event;
  const key = invoiceKeyOf(e.invoiceReference);
  const outcome = e.outcome === 'ignored' || !key ? 'ignored' : e.outcome;
  if (!(await collections.claimWebhookEvent(s.sql, { id: e.eventId, provider: provider.name, invoiceReference: e.invoiceReference, outcome }))) {
    return { ok: true, duplicate: true, applied: 'already_settled' };
  }
  if (outcome === 'ignored' || !key) return { ok: true, duplicate: false, applied: 'ignored' };
  try {
    // A failed attempt is on the record for ops either way; it changes nothing else.
    if (outcome === 'failed') await collections.recordPaymentFailure(s.sql, key, e.eventId);
    const signal = { eventId: e.eventId, outcome, amountPence: e.amountPence, providerRef: e.providerRef } as const;
    try {
      await s.temporal.workflow.getHandle(invoiceCollectionWorkflowId(key)).signal(invoicePaymentSignal, signal);
      return { ok: true, duplicate: false, applied: 'signalled' };
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    if (outcome === 'failed') return { ok: true, duplicate: false, applied: 'ignored' };
    const marked = await collections.markPaid(s.sql, key, signal);
    return { ok: true, duplicate: false, applied: marked ? 'marked_paid' : 'already_settled' };
  } catch (err) {
    // Not applied: forget the delivery so the provider's retry is processed afresh.
    await collections.forgetWebhookEvent(s.sql, e.eventId);
    throw err;
  }
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
export async function driverInvoices(s: Pick<Services, 'sql'>, driverId: string, limit = 26): Promise<DriverInvoiceView[]> {
  const invoices = await listInvoices(s.sql, driverId, limit);
  const found = await collections.collectionsOf(s.sql, 'driver', driverId, invoices.map((i) => new Date(i.weekStart)));
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
export async function partnerInvoices(s: Pick<Services, 'sql'>, partnerId: string, limit = 26): Promise<PartnerInvoiceView[]> {
  const invoices = await listPartnerInvoices(s.sql, partnerId, { limit });
  const found = await collections.collectionsOf(s.sql, 'partner', partnerId, invoices.map((i) => new Date(i.weekStart)));
  return invoices.map((i) => {
    const c = found.get(i.weekStart);
    const status: InvoiceStatusShown = c ? c.status : i.totalPence === 0 ? 'nothing_due' : i.totalPence < MIN_COLLECTION_PENCE ? 'below_minimum' : 'not_collected';
    return { ...i, collection: { status, payUrl: c && c.status !== 'paid' ? c.payUrl : null, paidAt: c?.paidAt ?? null, overdueAt: c?.overdueAt ?? null } };
  });
}

/** Invoices owed, for ops: unpaid, overdue, or both ('open'). */
export async function openInvoices(s: Pick<Services, 'sql'>, status: 'unpaid' | 'overdue' | 'open'): Promise<collections.OpenInvoiceRow[]> {
  return collections.openCollections(s.sql, status);
}
