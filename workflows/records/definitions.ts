import { defineQuery } from '@temporalio/workflow';
import type { WatchInput, WatchState } from '../watch.js';

// The booking records' retention (docs/records.md): one long-running workflow for the service,
// which each minute erases the records whose authority's retention is over (workflows/watch.ts).

/** One id for the service: every worker starts it with USE_EXISTING, so it runs once. */
export const RECORDS_RETENTION_WORKFLOW_ID = 'records:retention';

/** Looks in this run, records erased in this run, and across runs. */
export type RecordsRetentionState = WatchState<'erased'>;
export type RecordsRetentionInput = WatchInput<'erased'>;

export const recordsRetentionStateQuery = defineQuery<RecordsRetentionState>('recordsRetentionState');
