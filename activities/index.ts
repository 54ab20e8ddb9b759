import type { Sql } from '../src/db/sql.js';
import type { Notifier } from '../src/notify/notifier.js';
import { createBookingActivities, type BookingActivitySettings } from './bookings.js';
import { createQuoteActivities } from './quotes.js';

export interface ActivityDeps {
  sql: Sql;
  notifier: Notifier;
  settings: BookingActivitySettings;
}

/** All activities the worker registers, built from their dependencies (no module-level state). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createQuoteActivities(deps),
    ...createBookingActivities(deps),
  };
}
