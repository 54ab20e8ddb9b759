// The billing workflows' Temporal contract: their ids, inputs, messages and failure types, which the
// application, the activities and the worker must agree on. What billing means (weeks, prices,
// invoices, collection policy) is src/model/billing.ts. Imported by workflow code, so it stays free
// of Node built-ins and I/O.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Tier } from '../../src/model/bookings.js';
import {
  londonDate,
  type CollectionStatus,
  type Invoice,
  type InvoiceKey,
  type SubscriptionStatus,
  type TrialExtension,
} from '../../src/model/billing.js';

export const SUBSCRIPTION_WORKFLOW_PREFIX = 'subscription:';
export const BILL_WEEK_WORKFLOW_PREFIX = 'subscription-week:';

export function subscriptionWorkflowId(driverId: string): string {
  return `${SUBSCRIPTION_WORKFLOW_PREFIX}${driverId}`;
}

/** One id per driver and week (named by its Monday's London date): a week cannot be billed twice. */
export function billWeekWorkflowId(driverId: string, weekStart: string): string {
  return `${BILL_WEEK_WORKFLOW_PREFIX}${driverId}:${londonDate(Date.parse(weekStart))}`;
}

export interface DriverSubscriptionInput {
  driverId: string;
  tier: Tier;
  /** ISO instant of the driver's approval: the trial starts here. */
  approvedAt: string;
  /** What a previous run handed over when it continued as new; absent on the first run. */
  carried?: CarriedSubscription;
}

export interface CarriedSubscription {
  extendedDays: number;
  extensions: number;
  weeksBilled: number;
  lastWeekBilled: Invoice | null;
  /** The next week to bill (ISO instant of its Monday 00:00 Europe/London). */
  nextWeekStart: string;
}

export interface BillWeekInput {
  driverId: string;
  /** ISO instants, Monday 00:00 Europe/London inclusive to the next Monday 00:00 exclusive. */
  weekStart: string;
  weekEnd: string;
}

export interface SubscriptionState {
  driverId: string;
  tier: Tier;
  approvedAt: string;
  trialEndsAt: string;
  /** Whole days left, a started day counting as one; 0 once the trial has ended. */
  trialDaysRemaining: number;
  state: SubscriptionStatus;
  weeksBilled: number;
  lastWeekBilled: Invoice | null;
}

/** An administrator's extension of the trial: the part of the record the update is given. */
export type ExtendTrialInput = Pick<TrialExtension, 'days' | 'by' | 'reason'>;

export interface CancelSubscriptionInput {
  reason: string;
}

/** ApplicationFailure types the extendTrial update is refused with. */
export const SubscriptionFailure = {
  trialEnded: 'TrialEnded',
  invalidExtension: 'InvalidTrialExtension',
  /** The extension would make the trial longer than MAX_TRIAL_DAYS in all. */
  trialTooLong: 'TrialTooLong',
} as const;

export const subscriptionStateQuery = defineQuery<SubscriptionState>('subscriptionState');
export const extendTrialUpdate = defineUpdate<SubscriptionState, [ExtendTrialInput]>('extendTrial');
/** The driver was removed: no further weeks are billed (a week already being billed completes). */
export const cancelSubscriptionSignal = defineSignal<[CancelSubscriptionInput]>('cancelSubscription');

// Collecting an invoice (docs/billing.md, "Collection"). One workflow per invoice with something to
// collect, started by the week's billing run.

export const INVOICE_COLLECTION_PREFIX = 'invoice-collection:';
/** billWeekWorkflow starts the invoice's collection (added in 0.4.0). */
export const COLLECT_INVOICES_PATCH = 'collect-invoices';

/** invoice-collection:<driver|partner>:<id>:<Monday's London date>: one collection per invoice. */
export function invoiceCollectionWorkflowId(k: InvoiceKey): string {
  return `${INVOICE_COLLECTION_PREFIX}${k.account}:${k.accountId}:${londonDate(Date.parse(k.weekStart))}`;
}

export interface InvoiceCollectionInput extends InvoiceKey {
  totalPence: number;
}

/** A verified provider event about an invoice, as the webhook signals it. */
export interface InvoicePaymentEvent {
  eventId: string;
  outcome: 'succeeded' | 'failed';
  amountPence: number;
  providerRef: string;
}

export interface InvoiceCollectionState extends InvoiceCollectionInput {
  status: CollectionStatus;
  remindersSent: number;
  paidBy: string | null;
  lastFailure: string | null;
}

export const invoicePaymentSignal = defineSignal<[InvoicePaymentEvent]>('invoicePayment');
export const invoiceCollectionStateQuery = defineQuery<InvoiceCollectionState>('invoiceCollectionState');

// Partners' weekly invoices (SMS pass-through for their jobs): one workflow bills every partner.

export const PARTNER_BILLING_WORKFLOW_ID = 'partner-billing';

export interface PartnerBillingInput {
  /** The next week to bill (ISO instant of its Monday); absent on the first run: the current week. */
  nextWeekStart?: string;
}

export interface PartnerWeekInput {
  weekStart: string;
  weekEnd: string;
}
