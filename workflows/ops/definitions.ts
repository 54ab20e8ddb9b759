import { defineQuery } from '@temporalio/workflow';

// The ops watcher: one long-running workflow for the whole service (not one per booking), which
// each minute asks Postgres for bookings still without a driver close to pickup and alerts ops
// about each once. Shared by the worker that starts it and by tests.

/** One id for the service: every worker starts it with USE_EXISTING, so it runs once. */
export const OPS_WATCH_WORKFLOW_ID = 'ops-watch:unassigned';

/** How often the watcher looks. */
export const OPS_WATCH_INTERVAL_MS = 60_000;

/** Looks per run before continuing as new (a day of minutes: about 7,000 history events). */
export const OPS_WATCH_CHECKS_PER_RUN = 1440;

export interface OpsWatchState {
  /** Looks in this run. */
  checks: number;
  /** Alerts sent in this run. */
  alerted: number;
  /** Total alerts across runs (carried over continue-as-new). */
  alertedTotal: number;
}

export interface OpsWatchInput {
  alertedTotal?: number;
}

export const opsWatchStateQuery = defineQuery<OpsWatchState>('opsWatchState');
