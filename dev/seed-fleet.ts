import type { Sql } from '../src/db/sql.js';
import { DEMO_DRIVERS, DEMO_FLEETS } from './demo-fleet.js';

export interface SeedFleetOptions {
  /**
   * Put every demo driver back online at its demo position with location_at = now() (default).
   * With false, drivers already in the table keep their live state (online, position and its
   * time), e.g. as moved by the driver app; only their profile is brought back to the demo data.
   */
  refreshLocations?: boolean;
}

/**
 * Upserts the demo fleet (src/dispatch/demo-fleet.ts) by id, so running it again changes nothing
 * but the freshness of the positions, and rows it does not own are never touched.
 */
export async function seedFleet(sql: Sql, opts: SeedFleetOptions = {}): Promise<{ drivers: number; fleets: number }> {
  const refresh = opts.refreshLocations ?? true;
  await sql.begin(async (tx) => {
    for (const f of DEMO_FLEETS) {
      await tx`
        insert into partner_fleets (id, name, approved) values (${f.id}, ${f.name}, ${f.approved})
        on conflict (id) do update set name = excluded.name, approved = excluded.approved`;
      if (f.licence) {
        await tx`
          insert into operator_licences (holder_kind, holder_id, authority, number, kind, expires_on, recorded_by)
          values ('partner_fleet', ${f.id}, ${f.licence.authority}, ${f.licence.number}, 'private_hire',
                  (now() + interval '1 year')::date, 'fleet:seed')
          on conflict (holder_kind, holder_id, authority, number, kind) do update set expires_on = excluded.expires_on`;
      }
    }
    for (const d of DEMO_DRIVERS) {
      // location_at is the database's now(), the clock the dispatch query compares it with.
      await tx`
        insert into drivers (id, name, phone, whatsapp, tier, home_area, partner_fleet_id, approved,
          vehicle_type, vehicle_description, vehicle_make, vehicle_model, vehicle_colour, vehicle_registration, plate,
          seats, wheelchair_accessible, online, lat, lon, location_at)
        values (${d.id}, ${d.name}, ${d.phone}, ${d.whatsapp}, ${d.tier}, ${d.homeArea}, ${d.partnerFleetId}, ${d.approved},
          ${d.vehicleType}, ${d.vehicleDescription}, ${d.vehicleMake}, ${d.vehicleModel}, ${d.vehicleColour}, ${d.vehicleRegistration},
          ${d.plate}, ${d.seats}, ${d.wheelchairAccessible}, ${d.online}, ${d.lat}, ${d.lon}, now())
        on conflict (id) do update set
          name = excluded.name, phone = excluded.phone, whatsapp = excluded.whatsapp, tier = excluded.tier,
          home_area = excluded.home_area, partner_fleet_id = excluded.partner_fleet_id, approved = excluded.approved,
          vehicle_type = excluded.vehicle_type, vehicle_description = excluded.vehicle_description,
          vehicle_make = excluded.vehicle_make, vehicle_model = excluded.vehicle_model, vehicle_colour = excluded.vehicle_colour,
          vehicle_registration = excluded.vehicle_registration, plate = excluded.plate,
          seats = excluded.seats, wheelchair_accessible = excluded.wheelchair_accessible,
          online = case when ${refresh} then excluded.online else drivers.online end,
          lat = case when ${refresh} then excluded.lat else drivers.lat end,
          lon = case when ${refresh} then excluded.lon else drivers.lon end,
          location_at = case when ${refresh} then excluded.location_at else drivers.location_at end`;
    }
  });
  return { drivers: DEMO_DRIVERS.length, fleets: DEMO_FLEETS.length };
}
