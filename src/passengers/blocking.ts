import type { StaffMember } from '../auth/staff.js';
import { recordStaffAction } from '../auth/staff.js';
import type { Sql } from '../db/sql.js';

/** Staff block or unblock a passenger's email (a blocked email cannot book: 403), on the record. */
export async function setPassengerBlocked(sql: Sql, staff: StaffMember, email: string, blocked: boolean, reason: string): Promise<void> {
  const key = email.trim().toLowerCase();
  await sql`
    insert into passenger_emails (email, blocked_at, blocked_reason)
    values (${key}, ${blocked ? new Date() : null}, ${blocked ? reason : null})
    on conflict (email) do update set blocked_at = excluded.blocked_at, blocked_reason = excluded.blocked_reason`;
  await recordStaffAction(sql, { staffId: staff.id, action: blocked ? 'passenger.block' : 'passenger.unblock', subjectKind: 'passenger', subjectId: key, reason });
}
