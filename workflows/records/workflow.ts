import { acts } from '../activities.js';
import { watchEachMinute } from '../watch.js';
import { recordsRetentionStateQuery, type RecordsRetentionInput } from './definitions.js';

/**
 * `records:retention`: each minute, erase the booking records whose licensing authority's retention
 * is over, with the passenger's personal data on the booking. Which records, and each authority's
 * period, are the activity's and Postgres's business (set by staff, so a change needs no new
 * workflow); history is bounded by continuing as new after a day of looks.
 */
export async function recordsRetentionWorkflow(input: RecordsRetentionInput = {}): Promise<void> {
  await watchEachMinute('erased', input, recordsRetentionStateQuery, async () => {
    return (await acts.eraseExpiredRecords()).erased;
  });
}
