import type { Sql } from '../db/sql.js';

// Online drivers whose app has gone quiet (src/dispatch/policy.ts passes over a position older than
// its freshness window): claimed once per silence, so a retried activity or two watchers never
// text a driver twice about the same one.

export interface QuietDriver {
  id: string;
  phone: string;
  location_at: Date;
}

/**
 * Online approved drivers last heard from between `warnAfterMs` and an hour ago, not yet warned
 * about this silence, and not warned in the last hour; each marked warned as it is claimed.
 */
export async function claimQuietDrivers(sql: Sql, warnAfterMs: number): Promise<QuietDriver[]> {
  return sql<QuietDriver[]>`
    update drivers set location_warned_for = location_at, location_warned_at = now()
     where online and approved and status = 'approved'
       and location_at < now() - make_interval(secs => ${warnAfterMs / 1000})
       and location_at > now() - interval '1 hour'
       and location_warned_for is distinct from location_at
       and (location_warned_at is null or location_warned_at < now() - interval '1 hour')
    returning id, phone, location_at`;
}
