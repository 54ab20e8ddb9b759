import { ApplicationFailure, log } from '@temporalio/activity';
import { DateTime } from 'luxon';
import type { Sql } from '../src/db/sql.js';
import * as store from '../src/billing/subscription-store.js';
import * as collections from '../src/billing/collection-store.js';
import * as partnerInvoices from '../src/billing/partner-invoice-store.js';
import { PaymentProviderError } from '../src/billing/payment-provider.js';
import type { BillingSettings } from '../src/billing/settings.js';
import { sendBestEffort } from '../src/notify/best-effort.js';
import type { Notifier } from '../src/notify/notifier.js';
import {
  renderInvoiceNoticeText,
  renderInvoiceReminderText,
  renderOpsInvoiceOverdueEmail,
} from '../src/notify/templates.js';
import type { BillWeekInput, InvoiceCollectionInput, PartnerWeekInput } from '../workflows/billing/definitions.js';
import {
  COLLECTION_POLICY,
  invoiceReference,
  partnerWeekCharge,
  weekInvoice,
  type Invoice,
  type InvoiceKey,
  type SubscriptionRecord,
  type TrialExtension,
} from '../src/model/billing.js';

const HOUR_MS = 3_600_000;
const weekOf = (weekStart: string) => DateTime.fromISO(weekStart).setZone('Europe/London').toFormat('d LLL yyyy');
const keyOf = (i: InvoiceKey): InvoiceKey => ({ account: i.account, accountId: i.accountId, weekStart: i.weekStart });

/**
 * The subscription workflow's reads and writes, and the collection workflow's steps. Each is
 * idempotent (upserts, an extension keyed by its number, an invoice keyed by driver and week, a
 * collection keyed by its invoice, messages keyed in the outbox, the provider's idempotency key),
 * so a retry or a worker dying mid-activity records nothing twice and charges no week twice.
 */
export function createBillingActivities({
  sql,
  notifier,
  billing,
}: {
  sql: Sql;
  notifier: Notifier;
  billing: BillingSettings;
}) {
  const warn = (m: string, a: Record<string, unknown>) => log.warn(m, a);

  /** The invoice's current pay link; a new one when there is none or it expires within the hour (Stripe's last 24 hours). */
  async function payLink(k: InvoiceKey, attempt: string): Promise<string> {
    const c = await collections.findCollection(sql, k);
    if (!c) throw new Error(`no collection for ${invoiceReference(k)}`);
    if (c.payUrl && (!c.payUrlExpiresAt || Date.parse(c.payUrlExpiresAt) > Date.now() + HOUR_MS)) return c.payUrl;
    const lines =
      (await store.invoiceLines(sql, k.account, k.accountId, [new Date(k.weekStart)])).get(
        new Date(k.weekStart).toISOString(),
      ) ?? [];
    const contact = await collections.contactOf(sql, k);
    const reference = invoiceReference(k);
    try {
      const link = await billing.provider.createCollection({
        idempotencyKey: `${reference}:${attempt}`,
        invoiceReference: reference,
        amountPence: c.totalPence,
        lines,
        description: `Direct Taxi subscription, week of ${weekOf(k.weekStart)}`,
        customerEmail: contact?.email ?? null,
        returnUrl: `${billing.publicBaseUrl}/driver`,
      });
      await collections.saveCollectionLink(sql, k, link);
      return link.payUrl;
    } catch (err) {
      if (err instanceof PaymentProviderError && !err.retryable)
        throw ApplicationFailure.nonRetryable(err.message, 'PaymentProviderRefused');
      throw err;
    }
  }

  async function textDriver(k: InvoiceKey, body: string, idempotencyKey: string): Promise<void> {
    const contact = await collections.contactOf(sql, k);
    if (!contact?.phone) return; // partners read their invoices through the API
    await sendBestEffort(
      notifier,
      { channel: 'sms', to: contact.phone, body, idempotencyKey, purpose: 'invoice_reminder' },
      warn,
    );
  }

  return {
    async saveSubscription(s: SubscriptionRecord): Promise<void> {
      await store.upsertSubscription(sql, s);
    },

    async recordTrialExtension(e: TrialExtension): Promise<void> {
      await store.recordTrialExtension(sql, e);
    },

    /** The week's invoice, itemised: written by the first run, read back by every later one. */
    async billDriverWeek({ driverId, weekStart, weekEnd }: BillWeekInput): Promise<Invoice> {
      const source = billing.prices.thirdPartySource;
      const figures = {
        earningsPence: await store.weekEarningsPence(sql, driverId, weekStart, weekEnd),
        smsCount: await store.weekSmsCount(sql, driverId, weekStart, weekEnd),
        thirdPartyJobs: source ? await store.weekThirdPartyJobs(sql, driverId, source, weekStart, weekEnd) : 0,
        cardPayments: await store.weekCardPayments(sql, driverId, weekStart, weekEnd),
      };
      return store.insertInvoice(sql, {
        driverId,
        weekStart,
        weekEnd,
        ...figures,
        ...weekInvoice(figures, billing.prices),
      });
    },

    /**
     * Opens the invoice's collection with the provider and texts the driver the pay link, once.
     * With no provider (BILLING_PAYMENT_PROVIDER=none) nothing is opened and no collection row is
     * written: the invoice stays on the record, shown as not collected, and every later step of
     * the workflow (reminders, overdue, paid) finds no collection and does nothing.
     */
    async openInvoiceCollection(i: InvoiceCollectionInput): Promise<void> {
      const k = keyOf(i);
      if (billing.provider.collects === false) {
        log.info('invoice kept, not collected: no payment provider', {
          invoice: invoiceReference(k),
          totalPence: i.totalPence,
        });
        return;
      }
      await collections.openCollection(sql, k, i.totalPence, billing.provider.name);
      const url = await payLink(k, 'open');
      await textDriver(
        k,
        renderInvoiceNoticeText(weekOf(k.weekStart), i.totalPence, url),
        `invoice-notice:${invoiceReference(k)}`,
      );
    },

    /** The n-th reminder (capped by the workflow at COLLECTION_POLICY.maxReminders), with a pay link that still works. */
    async remindInvoice(i: InvoiceCollectionInput & { reminder: number }): Promise<void> {
      const k = keyOf(i);
      const c = await collections.findCollection(sql, k);
      if (!c || c.status === 'paid') return;
      const url = await payLink(k, `reminder-${i.reminder}`);
      const overdueOn = DateTime.fromISO(c.weekStart)
        .setZone('Europe/London')
        .plus({ days: 7 + COLLECTION_POLICY.overdueAfterDays })
        .toFormat('d LLL');
      await textDriver(
        k,
        renderInvoiceReminderText(weekOf(k.weekStart), c.totalPence, url, overdueOn),
        `invoice-reminder:${invoiceReference(k)}:${i.reminder}`,
      );
      await collections.recordReminder(sql, k, i.reminder);
    },

    /** Unpaid after COLLECTION_POLICY.overdueAfterDays: overdue, and ops are emailed once. */
    async markInvoiceOverdue(i: InvoiceCollectionInput): Promise<void> {
      const k = keyOf(i);
      await collections.markOverdue(sql, k);
      const c = await collections.findCollection(sql, k);
      if (!c || c.status !== 'overdue') return;
      const contact = await collections.contactOf(sql, k);
      const { subject, body } = renderOpsInvoiceOverdueEmail(
        {
          who: contact?.name ?? k.accountId,
          account: k.account,
          accountId: k.accountId,
          weekOf: weekOf(k.weekStart),
          totalPence: c.totalPence,
          remindersSent: c.remindersSent,
        },
        billing.publicBaseUrl,
      );
      await sendBestEffort(
        notifier,
        {
          channel: 'email',
          to: billing.opsAlertEmail,
          subject,
          body,
          idempotencyKey: `ops:invoice-overdue:${invoiceReference(k)}`,
          purpose: 'ops_alert',
        },
        warn,
      );
    },

    /**
     * Every partner's invoice for the week (those with something charged): written once each, read
     * back by a retry. Answers what each owes, for the workflow to collect.
     */
    async billPartnersWeek({
      weekStart,
      weekEnd,
    }: PartnerWeekInput): Promise<Array<{ partnerId: string; totalPence: number }>> {
      const owed: Array<{ partnerId: string; totalPence: number }> = [];
      for (const { partnerId, smsCount } of await partnerInvoices.partnersSmsInWeek(sql, weekStart, weekEnd)) {
        const invoice = await partnerInvoices.insertPartnerInvoice(sql, {
          partnerId,
          weekStart,
          weekEnd,
          smsCount,
          ...partnerWeekCharge(smsCount),
        });
        owed.push({ partnerId, totalPence: invoice.totalPence });
      }
      return owed;
    },

    /** Marks the invoice paid; a second call (a retry, another event) changes nothing. */
    async markInvoicePaid(
      i: InvoiceCollectionInput & { eventId: string; amountPence: number; providerRef: string },
    ): Promise<void> {
      await collections.markPaid(sql, keyOf(i), i);
    },
  };
}
