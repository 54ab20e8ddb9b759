import type { Sql } from '../src/db/sql.js';
import { createQuoteActivities } from './quotes.js';

export interface ActivityDeps {
  sql: Sql;
}

/** All activities the worker registers, built from their dependencies (no module-level state). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createQuoteActivities(deps),
  };
}
