import type { Sql } from '../db/sql.js';

// Where an assigned driver last said they were (drivers.lat/lon/location_at, written by
// POST /api/driver/location). Read for the tracking page only; whether it may be shown is the
// page's decision (src/pages/track-page.ts), by the booking's status and the report's age.

export interface DriverPosition {
  lat: number;
  lon: number;
  at: Date;
}

export async function findDriverPosition(sql: Sql, driverId: string): Promise<DriverPosition | null> {
  const [row] = await sql<DriverPosition[]>`
    select lat, lon, location_at as at from drivers
     where id = ${driverId} and lat is not null and lon is not null and location_at is not null`;
  return row ?? null;
}
