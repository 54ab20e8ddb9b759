// The drivers' and partners' billing as the business states it (spec section 8, docs/billing.md):
// the billing week, the price list, what a week's invoice says and how an unpaid one is followed
// up. Shared by src/, activities/ and workflows/ (whose contract is workflows/billing/definitions.ts),
// so it stays pure: no Node built-ins, no I/O, nothing imported from outside src/model/.
import type { Tier } from './bookings.js';
import { londonOffsetMs, londonWallToUtc } from './london-clock.js';

// Billing weeks run Monday 00:00 to Monday 00:00 Europe/London, by the UK clock rule that
// src/model/london-clock.ts writes out (workflow code cannot load a time zone database).

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

// A London midnight is never in a gap or an overlap (the clocks change at 01:00 and 02:00 local on
// a Sunday), so londonWallToUtc gives its instant.

/** Monday 00:00 Europe/London at or before t: the start of the billing week t falls in. */
export function weekStartOf(t: number): number {
  const local = new Date(t + londonOffsetMs(t));
  const daysSinceMonday = (local.getUTCDay() + 6) % 7;
  return londonWallToUtc(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - daysSinceMonday));
}

/**
 * The first Monday 00:00 Europe/London strictly after t. Seven calendar days on, not 168 hours:
 * a week spanning a clock change is 167 or 169 hours long.
 */
export function nextWeekStart(t: number): number {
  const start = weekStartOf(t);
  return londonWallToUtc(start + londonOffsetMs(start) + WEEK_MS);
}

/** The first week boundary at or after t: a trial ending exactly on a Monday midnight bills that week. */
export function weekStartAtOrAfter(t: number): number {
  const start = weekStartOf(t);
  return start === t ? t : nextWeekStart(t);
}

/** The London calendar date (YYYY-MM-DD) of an instant; a week's Monday names it in ids. */
export function londonDate(t: number): string {
  return new Date(t + londonOffsetMs(t)).toISOString().slice(0, 10);
}

// The price list (spec section 8). Money is integer pence.
export const TRIAL_DAYS: Readonly<Record<Tier, number>> = { local: 90, national: 90, partner: 30 };
/** Earnings above this in a week make it a paid week. */
export const FREE_WEEK_MAX_EARNINGS_PENCE = 50_000;
export const WEEKLY_FEE_PENCE = 2_000;
export const SMS_PENCE = 2;
/** Days one extension may add (spec 8: the trial is "extendable by an administrator"). */
export const MAX_EXTENSION_DAYS = 90;
/** A trial is never longer than this in all, however often it is extended. */
export const MAX_TRIAL_DAYS = 365;

export interface WeekCharge {
  feePence: number;
  smsPence: number;
  totalPence: number;
  status: 'billed' | 'free';
}

/** What a week costs: the fee only above 500 GBP of earnings; SMS pass-through either way. */
export function weekCharge(earningsPence: number, smsCount: number): WeekCharge {
  const feePence = earningsPence > FREE_WEEK_MAX_EARNINGS_PENCE ? WEEKLY_FEE_PENCE : 0;
  const smsPence = smsCount * SMS_PENCE;
  return { feePence, smsPence, totalPence: feePence + smsPence, status: feePence > 0 ? 'billed' : 'free' };
}

/**
 * The other charges of spec 8, priced by configuration (docs/billing.md): a fee per completed job
 * from the one named third-party job source, and the card rail's processor fee (basis points of
 * each card payment plus a fixed amount per payment). Passed into activities, never read by a workflow.
 */
export interface BillingPrices {
  /** The partner id of the named third-party job source; null: no source is named, no such fee. */
  thirdPartySource: string | null;
  thirdPartyJobFeePence: number;
  cardFeeBasisPoints: number;
  cardFeeFixedPence: number;
}

export type InvoiceLineKind = 'weekly_fee' | 'sms' | 'third_party_jobs' | 'card_processing';

/** One line of an invoice as the driver (or partner) reads it. */
export interface InvoiceLine {
  kind: InvoiceLineKind;
  quantity: number;
  /** Price of one; null where each one costs a different amount (card fees are a percentage). */
  unitPence: number | null;
  amountPence: number;
  description: string;
}

/** What a week's invoice is computed from. */
export interface WeekFigures {
  earningsPence: number;
  smsCount: number;
  /** Jobs from the named third-party source the driver completed in the week. */
  thirdPartyJobs: number;
  /** Each card payment taken for a trip completed in the week, in pence. */
  cardPayments: number[];
}

export interface InvoiceCharge extends WeekCharge {
  thirdPartyJobs: number;
  thirdPartyPence: number;
  cardTrips: number;
  cardPence: number;
  /** Every non-zero charge as a line; their amounts add up to totalPence. */
  lines: InvoiceLine[];
}

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** The card rail's processor fee on one payment: basis points rounded to the nearest penny, plus the fixed part. */
export function cardFeePence(
  paymentPence: number,
  prices: Pick<BillingPrices, 'cardFeeBasisPoints' | 'cardFeeFixedPence'>,
): number {
  return Math.round((paymentPence * prices.cardFeeBasisPoints) / 10_000) + prices.cardFeeFixedPence;
}

/**
 * The week's invoice, itemised: the 20 GBP fee above 500 GBP of earnings, SMS pass-through, the
 * third-party source's per-job fee and the card processor fee. Lines are written only for what is
 * charged; the total is their sum, and status says whether the weekly fee applied (a free week can
 * still owe SMS or card fees).
 */
export function weekInvoice(f: WeekFigures, prices: BillingPrices): InvoiceCharge {
  const base = weekCharge(f.earningsPence, f.smsCount);
  const thirdPartyPence = prices.thirdPartySource ? f.thirdPartyJobs * prices.thirdPartyJobFeePence : 0;
  const thirdPartyJobs = prices.thirdPartySource ? f.thirdPartyJobs : 0;
  const cardPence = f.cardPayments.reduce((sum, p) => sum + cardFeePence(p, prices), 0);
  const cardTakings = f.cardPayments.reduce((sum, p) => sum + p, 0);
  const lines: InvoiceLine[] = [];
  if (base.feePence > 0) {
    lines.push({
      kind: 'weekly_fee',
      quantity: 1,
      unitPence: base.feePence,
      amountPence: base.feePence,
      description: `Weekly subscription: earnings ${pounds(f.earningsPence)}, above ${pounds(FREE_WEEK_MAX_EARNINGS_PENCE)}`,
    });
  }
  if (f.smsCount > 0) {
    lines.push({
      kind: 'sms',
      quantity: f.smsCount,
      unitPence: SMS_PENCE,
      amountPence: base.smsPence,
      description: `SMS pass-through: ${f.smsCount} text${f.smsCount === 1 ? '' : 's'} at ${SMS_PENCE}p`,
    });
  }
  if (thirdPartyJobs > 0) {
    lines.push({
      kind: 'third_party_jobs',
      quantity: thirdPartyJobs,
      unitPence: prices.thirdPartyJobFeePence,
      amountPence: thirdPartyPence,
      description: `Jobs from ${prices.thirdPartySource}: ${thirdPartyJobs} at ${pounds(prices.thirdPartyJobFeePence)}`,
    });
  }
  if (f.cardPayments.length > 0) {
    lines.push({
      kind: 'card_processing',
      quantity: f.cardPayments.length,
      unitPence: null,
      amountPence: cardPence,
      description: `Card processing: ${(prices.cardFeeBasisPoints / 100).toFixed(2)}% + ${pounds(prices.cardFeeFixedPence)} on each of ${f.cardPayments.length} card payment${f.cardPayments.length === 1 ? '' : 's'} (${pounds(cardTakings)})`,
    });
  }
  return {
    ...base,
    thirdPartyJobs,
    thirdPartyPence,
    cardTrips: f.cardPayments.length,
    cardPence,
    totalPence: base.totalPence + thirdPartyPence + cardPence,
    lines,
  };
}

/**
 * A driver's week as invoiced (a free week too, so the driver sees paid and free weeks alike).
 * Invoices carried in histories recorded before 0.4.0 lack the itemised fields.
 */
export interface Invoice extends InvoiceCharge {
  driverId: string;
  weekStart: string;
  weekEnd: string;
  earningsPence: number;
  smsCount: number;
}

export type SubscriptionStatus = 'trial' | 'active' | 'cancelled';

/** What the extension activity records, once (its id is the driver's n-th extension). */
export interface TrialExtension {
  id: string;
  driverId: string;
  days: number;
  /** The administrator who extended it. */
  by: string;
  reason: string;
  /** Total extension days after this one: the subscription row is set to it, never incremented. */
  totalExtendedDays: number;
  at: string;
}

/** The subscription row as the workflow keeps it in Postgres. */
export interface SubscriptionRecord {
  driverId: string;
  tier: Tier;
  approvedAt: string;
  trialDays: number;
  trialExtendedDays: number;
  state: SubscriptionStatus;
}

// Collecting an invoice (docs/billing.md, "Collection").

export type InvoiceAccountKind = 'driver' | 'partner';

/** Names one invoice: whose (a driver or a partner) and which week. */
export interface InvoiceKey {
  account: InvoiceAccountKind;
  accountId: string;
  /** ISO instant of the week's Monday 00:00 Europe/London. */
  weekStart: string;
}

/** The provider's idempotency key for the invoice: a retried request is the same collection. */
export function invoiceReference(k: InvoiceKey): string {
  return `invoice:${k.account}:${k.accountId}:${londonDate(Date.parse(k.weekStart))}`;
}

/**
 * Card providers refuse smaller charges (Stripe's minimum in GBP is 30p): a week owing less (a few
 * texts) is not collected; it stays on the record, shown as below the minimum.
 */
export const MIN_COLLECTION_PENCE = 30;

/** How an unpaid invoice is followed up, counted from the day its collection opens. */
export const COLLECTION_POLICY = {
  /** A reminder every this many days while unpaid... */
  reminderEveryDays: 3,
  /** ...at most this many (each is a text to the driver). */
  maxReminders: 3,
  /** Unpaid this long: overdue, and ops are alerted. */
  overdueAfterDays: 14,
  /** The workflow listens for a payment this long; later payments are applied by the webhook directly. */
  followForDays: 60,
} as const;

export type CollectionStatus = 'unpaid' | 'overdue' | 'paid';

// Partners' weekly invoices: SMS pass-through for their jobs.

/** What a partner's week costs: 2p per SMS sent about its jobs, itemised. */
export function partnerWeekCharge(smsCount: number): { smsPence: number; totalPence: number; lines: InvoiceLine[] } {
  const smsPence = smsCount * SMS_PENCE;
  const lines: InvoiceLine[] =
    smsCount > 0
      ? [
          {
            kind: 'sms',
            quantity: smsCount,
            unitPence: SMS_PENCE,
            amountPence: smsPence,
            description: `SMS pass-through: ${smsCount} text${smsCount === 1 ? '' : 's'} at ${SMS_PENCE}p about your jobs`,
          },
        ]
      : [];
  return { smsPence, totalPence: smsPence, lines };
}
