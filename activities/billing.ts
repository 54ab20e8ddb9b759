import type { Sql } from '../src/db/sql.js';
import * as store from '../src/billing/subscription-store.js';
import {
  weekCharge,
  type BillWeekInput,
  type Invoice,
  type SubscriptionRecord,
  type TrialExtension,
} from '../workflows/billing/definitions.js';

/**
 * The subscription workflow's reads and writes. Each is idempotent (upserts, an extension keyed by
 * its number, an invoice keyed by driver and week), so a retry or a worker dying mid-activity
 * records nothing twice and charges no week twice.
 */
export function createBillingActivities({ sql }: { sql: Sql }) {
  return {
    async saveSubscription(s: SubscriptionRecord): Promise<void> {
      await store.upsertSubscription(sql, s);
    },

    async recordTrialExtension(e: TrialExtension): Promise<void> {
      await store.recordTrialExtension(sql, e);
    },

    /** The week's invoice: written by the first run, read back by every later one. */
    async billDriverWeek({ driverId, weekStart, weekEnd }: BillWeekInput): Promise<Invoice> {
      const earningsPence = await store.weekEarningsPence(sql, driverId, weekStart, weekEnd);
      const smsCount = await store.weekSmsCount(sql, driverId, weekStart, weekEnd);
      return store.insertInvoice(sql, { driverId, weekStart, weekEnd, earningsPence, smsCount, ...weekCharge(earningsPence, smsCount) });
    },
  };
}
