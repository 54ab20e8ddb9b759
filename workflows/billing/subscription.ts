// A driver's subscription as driverSubscriptionWorkflow keeps it: the trial and its extensions, the
// weeks billed, and the answers to the workflow's messages. Every Temporal command the workflow
// issues is still issued in the order it always was (the released histories replay it; see
// test/unit/workflows/replay.test.ts): these methods only name the steps.
import { ApplicationFailure, condition, log } from '@temporalio/workflow';
import {
  MAX_EXTENSION_DAYS,
  MAX_TRIAL_DAYS,
  TRIAL_DAYS,
  type Invoice,
  type SubscriptionStatus,
} from '../../src/model/billing.js';
import { acts } from '../activities.js';
import {
  SubscriptionFailure,
  type CarriedSubscription,
  type DriverSubscriptionInput,
  type ExtendTrialInput,
  type SubscriptionState,
} from './definitions.js';

const DAY_MS = 86_400_000;

export class Subscription {
  readonly driverId: string;
  readonly trialDays: number;
  extendedDays: number;
  extensions: number;
  weeksBilled: number;
  lastWeekBilled: Invoice | null;
  status: SubscriptionStatus;
  private readonly approvedMs: number;

  constructor(private readonly input: DriverSubscriptionInput) {
    const { driverId, tier, approvedAt, carried } = input;
    this.driverId = driverId;
    this.approvedMs = Date.parse(approvedAt);
    this.trialDays = TRIAL_DAYS[tier];
    this.extendedDays = carried?.extendedDays ?? 0;
    this.extensions = carried?.extensions ?? 0;
    this.weeksBilled = carried?.weeksBilled ?? 0;
    this.lastWeekBilled = carried?.lastWeekBilled ?? null;
    // A run continued as new is past its trial by construction.
    this.status = carried || Date.now() >= this.trialEndsMs() ? 'active' : 'trial';
  }

  trialEndsMs(): number {
    return this.approvedMs + (this.trialDays + this.extendedDays) * DAY_MS;
  }

  state(): SubscriptionState {
    const { driverId, tier, approvedAt } = this.input;
    return {
      driverId,
      tier,
      approvedAt,
      trialEndsAt: new Date(this.trialEndsMs()).toISOString(),
      trialDaysRemaining:
        this.status === 'trial' ? Math.max(0, Math.ceil((this.trialEndsMs() - Date.now()) / DAY_MS)) : 0,
      state: this.status,
      weeksBilled: this.weeksBilled,
      lastWeekBilled: this.lastWeekBilled,
    };
  }

  /** The subscription row in Postgres, set to what this workflow holds. */
  save(): Promise<void> {
    const { driverId, tier, approvedAt } = this.input;
    return acts.saveSubscription({
      driverId,
      tier,
      approvedAt,
      trialDays: this.trialDays,
      trialExtendedDays: this.extendedDays,
      state: this.status,
    });
  }

  /** Throws the ApplicationFailure an extension is refused with, if it is. */
  refuseExtension(e: ExtendTrialInput): void {
    if (this.status !== 'trial' || Date.now() >= this.trialEndsMs()) {
      throw ApplicationFailure.nonRetryable(
        `the trial of driver ${this.driverId} ${this.status === 'cancelled' ? 'was cancelled' : `ended at ${new Date(this.trialEndsMs()).toISOString()}`}`,
        SubscriptionFailure.trialEnded,
      );
    }
    const bad =
      !Number.isInteger(e.days) || e.days < 1 || e.days > MAX_EXTENSION_DAYS
        ? `days must be a whole number from 1 to ${MAX_EXTENSION_DAYS}`
        : typeof e.by !== 'string' || e.by.trim() === ''
          ? 'by must name the administrator'
          : typeof e.reason !== 'string' || e.reason.trim() === ''
            ? 'a reason is required'
            : null;
    if (bad) throw ApplicationFailure.nonRetryable(bad, SubscriptionFailure.invalidExtension);
    const total = this.trialDays + this.extendedDays;
    if (total + e.days > MAX_TRIAL_DAYS) {
      throw ApplicationFailure.nonRetryable(
        `a trial is at most ${MAX_TRIAL_DAYS} days in all; this one is ${total} days, so it can be extended by ${Math.max(0, MAX_TRIAL_DAYS - total)} more at most`,
        SubscriptionFailure.trialTooLong,
      );
    }
  }

  /** The extendTrial update: the trial is longer from now on, and the extension is recorded once. */
  async extendTrial(e: ExtendTrialInput): Promise<SubscriptionState> {
    // The validator (never run on replay) refused most; checked again here against the state
    // this update finds, as two extensions accepted in one task both passed the validator.
    this.refuseExtension(e);
    // Moved synchronously, before the first await, so the trial timer is re-armed at once and a
    // second extension in the same task builds on this one.
    this.extendedDays += e.days;
    this.extensions += 1;
    await acts.recordTrialExtension({
      id: `${this.driverId}:${this.extensions}`,
      driverId: this.driverId,
      days: e.days,
      by: e.by.trim(),
      reason: e.reason.trim(),
      totalExtendedDays: this.extendedDays,
      at: new Date().toISOString(),
    });
    return this.state();
  }

  /** The driver was removed: no further weeks are billed. */
  cancel(reason: string): void {
    if (this.status === 'cancelled') return;
    log.info('subscription cancelled', { driverId: this.driverId, reason });
    this.status = 'cancelled';
  }

  /** Waits out the free trial (re-armed by every extension); the subscription is then active unless cancelled. */
  async waitOutTrial(): Promise<void> {
    while (this.status === 'trial' && Date.now() < this.trialEndsMs()) {
      const seen = this.extensions;
      await condition(() => this.status !== 'trial' || this.extensions !== seen, this.trialEndsMs() - Date.now());
    }
    if (this.status === 'trial') {
      this.status = 'active';
      await this.save();
    }
  }

  /** Waits for a week's end; false when the subscription was cancelled before it. */
  async activeAt(weekEnd: number): Promise<boolean> {
    if (weekEnd <= Date.now()) return true;
    return !(await condition(() => this.status !== 'active', weekEnd - Date.now()));
  }

  /** What the next run is handed when this one continues as new. */
  carried(nextWeekStart: number): CarriedSubscription {
    return {
      extendedDays: this.extendedDays,
      extensions: this.extensions,
      weeksBilled: this.weeksBilled,
      lastWeekBilled: this.lastWeekBilled,
      nextWeekStart: new Date(nextWeekStart).toISOString(),
    };
  }
}
