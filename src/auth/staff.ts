import { randomUUID } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import type { Sql } from '../db/sql.js';
import { hashSecret, newSecret, sameDigest } from './secrets.js';

// Operators and admins. Each holds a key (shown once, stored hashed) sent as a Bearer token by the
// ops pages and any back-office tool. Admins can do everything operators can, and extend trials.

export type StaffRole = 'operator' | 'admin';
export interface StaffMember {
  id: string;
  name: string;
  role: StaffRole;
}

const STAFF_KEY_PREFIX = 'stf_';

export async function createStaff(
  sql: Sql,
  s: { name: string; role: StaffRole },
): Promise<{ key: string; staff: StaffMember }> {
  const key = newSecret(STAFF_KEY_PREFIX);
  const id = randomUUID();
  await sql`insert into staff (id, name, role, key_prefix, key_hash) values (${id}, ${s.name}, ${s.role}, ${key.slice(0, 10)}, ${hashSecret(key)})`;
  return { key, staff: { id, name: s.name, role: s.role } };
}

export async function verifyStaffKey(sql: Sql, plain: string): Promise<StaffMember | null> {
  if (!plain.startsWith(STAFF_KEY_PREFIX)) return null;
  const hash = hashSecret(plain);
  const [row] = await sql<(StaffMember & { key_hash: string })[]>`
    select id, name, role, key_hash from staff where key_hash = ${hash} and revoked_at is null`;
  return row && sameDigest(row.key_hash, hash) ? { id: row.id, name: row.name, role: row.role } : null;
}

/** Every staff action is recorded: who, when, what, on whom, and why. */
export async function recordStaffAction(
  sql: Sql | TransactionSql,
  a: {
    staffId: string;
    action: string;
    subjectKind: string;
    subjectId: string;
    reason: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await sql`insert into staff_actions (staff_id, action, subject_kind, subject_id, reason, details)
            values (${a.staffId}, ${a.action}, ${a.subjectKind}, ${a.subjectId}, ${a.reason}, ${sql.json((a.details ?? {}) as never)})`;
}

/**
 * For actions that happen to a subject at most once (a trip ended by ops): recorded unless one is
 * already on record, so a retried request that finds the action done still leaves it recorded once.
 */
export async function recordStaffActionOnce(
  sql: Sql,
  a: {
    staffId: string;
    action: string;
    subjectKind: string;
    subjectId: string;
    reason: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await sql`insert into staff_actions (staff_id, action, subject_kind, subject_id, reason, details)
            select ${a.staffId}, ${a.action}, ${a.subjectKind}, ${a.subjectId}, ${a.reason}, ${sql.json((a.details ?? {}) as never)}
             where not exists (select 1 from staff_actions
                                where action = ${a.action} and subject_kind = ${a.subjectKind} and subject_id = ${a.subjectId})`;
}

export async function staffActionsFor(sql: Sql, subjectKind: string, subjectId: string) {
  return sql<
    { action: string; reason: string | null; details: unknown; at: Date; staff_name: string; staff_role: StaffRole }[]
  >`
    select a.action, a.reason, a.details, a.at, s.name as staff_name, s.role as staff_role
      from staff_actions a join staff s on s.id = a.staff_id
     where a.subject_kind = ${subjectKind} and a.subject_id = ${subjectId}
     order by a.at, a.id`;
}
