import type { Sql } from '../db/sql.js';
import type { Tier } from '../dispatch/candidates.js';

// The drivers table: who can be offered work and how to reach them.

export interface DriverRow {
  id: string;
  name: string;
  phone: string;
  whatsapp: string | null;
  tier: Tier;
  home_area: string | null;
  partner_fleet_id: string | null;
  approved: boolean;
  vehicle_type: string;
  vehicle_description: string;
  plate: string;
  seats: number;
  wheelchair_accessible: boolean;
  online: boolean;
  lat: number | null;
  lon: number | null;
  location_at: Date | null;
}

export async function findDriver(sql: Sql, id: string): Promise<DriverRow | null> {
  const [d] = await sql<DriverRow[]>`select * from drivers where id = ${id}`;
  return d ?? null;
}

/** For activities: a driver named by a workflow must exist (a missing one is a bug worth retrying loudly). */
export async function loadDriver(sql: Sql, id: string): Promise<DriverRow> {
  const d = await findDriver(sql, id);
  if (!d) throw new Error(`driver ${id} not found`);
  return d;
}
