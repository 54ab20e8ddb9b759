import type { StaffMember } from '../auth/staff.js';
import { recordStaffAction } from '../auth/staff.js';
import type { Sql } from '../db/sql.js';
import { Refusal } from '../refusal.js';
import { mailboxKey } from './email.js';

// A passenger's standing is one thing, whatever route they come by and however they spell their
// address: staff block a mailbox (every +tag, dot and googlemail spelling of it) or a phone, and
// every entry point that books, prices for a passenger or signs one in asks here first (the
// booking use cases in src/bookings/book.ts, v1 admission, sign-in, the MCP tools).

export type PassengerIdentifier = { email: string } | { phone: string };

const key = (i: PassengerIdentifier) => ('email' in i ? `email:${mailboxKey(i.email)}` : `phone:${i.phone}`);

/** Whether any of these (the passenger's email, phone or both) is blocked. */
export async function isPassengerBlocked(
  sql: Sql,
  p: { email?: string | null; phone?: string | null },
): Promise<boolean> {
  const keys = [...(p.email ? [key({ email: p.email })] : []), ...(p.phone ? [key({ phone: p.phone })] : [])];
  if (keys.length === 0) return false;
  const rows = await sql`select 1 from passenger_blocks where identifier in ${sql(keys)} limit 1`;
  return rows.length > 0;
}

/** Refused (forbidden, passenger_blocked) when the passenger's email or phone is blocked. */
export async function refuseBlockedPassenger(
  sql: Sql,
  p: { email?: string | null; phone?: string | null },
): Promise<void> {
  if (await isPassengerBlocked(sql, p)) throw passengerBlocked();
}

export const passengerBlocked = () =>
  Refusal.forbidden('passenger_blocked', 'This passenger account is blocked. Contact support.');

/** Staff block or unblock a passenger's mailbox or phone, on the record. Answers the key it acted on. */
export async function setPassengerBlocked(
  sql: Sql,
  staff: StaffMember,
  who: PassengerIdentifier,
  blocked: boolean,
  reason: string,
): Promise<string> {
  const identifier = key(who);
  if (blocked) {
    await sql`
      insert into passenger_blocks (identifier, reason, blocked_by) values (${identifier}, ${reason}, ${staff.id})
      on conflict (identifier) do update set reason = excluded.reason, blocked_at = now(), blocked_by = excluded.blocked_by`;
  } else {
    await sql`delete from passenger_blocks where identifier = ${identifier}`;
  }
  await recordStaffAction(sql, {
    staffId: staff.id,
    action: blocked ? 'passenger.block' : 'passenger.unblock',
    subjectKind: 'passenger',
    subjectId: identifier,
    reason,
  });
  return identifier;
}
