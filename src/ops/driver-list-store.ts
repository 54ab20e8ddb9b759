import type { Sql } from '../db/sql.js';
import type { StaffRole } from '../auth/staff.js';

// What the ops console shows with each driver of a page, read for the whole page at once (one query
// each, however many drivers): their documents (metadata), every staff action on them, and their
// fleet requests and membership history. The same facts GET /api/ops/drivers/{id} gives for one.

export async function documentsOf(sql: Sql, driverIds: readonly string[]) {
  if (driverIds.length === 0) return [];
  return sql<
    {
      driver_id: string;
      id: string;
      kind: string;
      content_type: string;
      size_bytes: number;
      sha256: string;
      uploaded_at: Date;
    }[]
  >`
    select driver_id, id::text, kind, content_type, size_bytes, sha256, uploaded_at
      from driver_documents where driver_id in ${sql(driverIds as string[])} order by driver_id, id`;
}

export async function staffActionsOn(sql: Sql, driverIds: readonly string[]) {
  if (driverIds.length === 0) return [];
  return sql<
    {
      subject_id: string;
      action: string;
      reason: string | null;
      details: unknown;
      at: Date;
      staff_name: string;
      staff_role: StaffRole;
    }[]
  >`
    select a.subject_id, a.action, a.reason, a.details, a.at, s.name as staff_name, s.role as staff_role
      from staff_actions a join staff s on s.id = a.staff_id
     where a.subject_kind = 'driver' and a.subject_id in ${sql(driverIds as string[])}
     order by a.at, a.id`;
}

export async function fleetRequestsOf(sql: Sql, driverIds: readonly string[]) {
  if (driverIds.length === 0) return [];
  return sql<
    {
      id: string;
      driver_id: string;
      fleet_id: string;
      fleet_name: string;
      status: 'pending' | 'granted' | 'refused' | 'closed';
      requested_at: Date;
      decided_at: Date | null;
    }[]
  >`
    select r.id::text, r.driver_id, r.fleet_id, f.name as fleet_name, r.status, r.requested_at, r.decided_at
      from driver_fleet_requests r join partner_fleets f on f.id = r.fleet_id
     where r.driver_id in ${sql(driverIds as string[])} order by r.requested_at, r.id`;
}

export async function fleetEventsOf(sql: Sql, driverIds: readonly string[]) {
  if (driverIds.length === 0) return [];
  return sql<
    {
      driver_id: string;
      event: string;
      fleet_id: string;
      by_kind: 'operator' | 'staff';
      by_name: string;
      reason: string | null;
      at: Date;
    }[]
  >`
    select e.driver_id, e.event, e.fleet_id, e.by_kind, coalesce(s.name, p.name, e.by_id) as by_name, e.reason, e.at
      from driver_fleet_events e
      left join staff s on e.by_kind = 'staff' and s.id::text = e.by_id
      left join partners p on e.by_kind = 'operator' and p.id = e.by_id
     where e.driver_id in ${sql(driverIds as string[])} order by e.at, e.id`;
}
