// Everything the application, the activities and the worker must agree on about the drivers'
// subscription, declared once. Imported by workflow code, so it stays free of Node built-ins and I/O.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Tier } from '../bookings/definitions.js';
import { londonDate } from './weeks.js';

export const SUBSCRIPTION_WORKFLOW_PREFIX = 'subscription:';
export const BILL_WEEK_WORKFLOW_PREFIX = 'subscription-week:';

export function subscriptionWorkflowId(driverId: string): string {
  return `${SUBSCRIPTION_WORKFLOW_PREFIX}${driverId}`;
}

/** One id per driver and week (named by its Monday's London date): a week cannot be billed twice. */
export function billWeekWorkflowId(driverId: string, weekStart: string): string {
  return `${BILL_WEEK_WORKFLOW_PREFIX}${driverId}:${londonDate(Date.parse(weekStart))}`;
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

/** A driver's week as invoiced (a free week too, so the driver sees paid and free weeks alike). */
export interface Invoice extends WeekCharge {
  driverId: string;
  weekStart: string;
  weekEnd: string;
  earningsPence: number;
  smsCount: number;
}

export type SubscriptionStatus = 'trial' | 'active' | 'cancelled';

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

export interface ExtendTrialInput {
  days: number;
  /** The administrator who extended it. */
  by: string;
  reason: string;
}

/** What the extension activity records, once (its id is the driver's n-th extension). */
export interface TrialExtension extends ExtendTrialInput {
  id: string;
  driverId: string;
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
