import { defineQuery } from '@temporalio/workflow';
import { WATCH_CHECKS_PER_RUN, type WatchInput, type WatchState } from '../watch.js';

// The ops watcher: one long-running workflow for the whole service (not one per booking), which
// each minute asks Postgres for bookings still without a driver close to pickup and alerts ops
// about each once (workflows/watch.ts). Shared by the worker that starts it and by tests.

/** One id for the service: every worker starts it with USE_EXISTING, so it runs once. */
export const OPS_WATCH_WORKFLOW_ID = 'ops-watch:unassigned';
export const OPS_WATCH_CHECKS_PER_RUN = WATCH_CHECKS_PER_RUN;

/** Looks in this run, alerts sent in this run, and alerts across runs. */
export type OpsWatchState = WatchState<'alerted'>;
export type OpsWatchInput = WatchInput<'alerted'>;

export const opsWatchStateQuery = defineQuery<OpsWatchState>('opsWatchState');
