import type { Sql } from '../src/db/sql.js';
import { deleteExpiredRecords } from '../src/records/store.js';

/** Booking records past their retention (docs/records.md): erased a batch at a time, each look. */
export function createRecordActivities({ sql, recordRetentionMonths }: { sql: Sql; recordRetentionMonths?: number }) {
  return {
    /** Idempotent: a record already erased is not found again. */
    async eraseExpiredRecords(): Promise<{ erased: string[] }> {
      return {
        erased: await deleteExpiredRecords(sql, { now: new Date(), defaultMonths: recordRetentionMonths ?? 12 }),
      };
    },
  };
}
