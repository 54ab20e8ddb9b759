import type { Sql } from '../db/sql.js';

// The unassigned-near-pickup alert's SQL: which bookings are due, and the one claim per booking.

/** Statuses of a booking that still has no driver and may get one. */
export const WITHOUT_DRIVER = ['awaiting_confirmation', 'scheduled', 'dispatching', 'offered', 'unassigned'] as const;

/**
 * A booking made moments before its pickup ("now") has its first cascade round before ops hear of
 * it; ops are told if it is still without a driver this long after it was made.
 */
export const NEW_BOOKING_GRACE_MINUTES = 5;

/** Bookings whose pickup passed this long ago are not news any more (a worker down for a day). */
const STALE_AFTER_HOURS = 2;

/**
 * Claims the alert for every booking without a driver whose pickup is within `withinMinutes` and
 * answers the references claimed now. One row per booking (primary key), so however often the
 * watcher asks, and whichever run asks, each booking is claimed once.
 */
export async function claimUnassignedNearPickup(sql: Sql, withinMinutes: number): Promise<string[]> {
  const rows = await sql<{ booking_ref: string }[]>`
    insert into ops_alerts (booking_ref, kind, pickup_at)
    select b.ref, 'unassigned_near_pickup', b.pickup_at
      from bookings b
     where b.driver_id is null and b.status in ${sql(WITHOUT_DRIVER as unknown as string[])}
       and b.pickup_at <= now() + make_interval(mins => ${withinMinutes})
       and b.pickup_at > now() - make_interval(hours => ${STALE_AFTER_HOURS})
       and b.created_at <= now() - make_interval(mins => ${NEW_BOOKING_GRACE_MINUTES})
    on conflict do nothing
    returning booking_ref`;
  return rows.map((r) => r.booking_ref);
}

/**
 * Claimed alerts whose email is not in the outbox yet: the ones claimed now, and any whose send
 * was interrupted (a worker killed between the claim and the send), so none is lost.
 */
export async function alertsToSend(sql: Sql, outboxKey: (ref: string) => string): Promise<string[]> {
  const claimed = await sql<{ booking_ref: string }[]>`
    select booking_ref from ops_alerts
     where kind = 'unassigned_near_pickup' and alerted_at > now() - interval '1 day'`;
  if (claimed.length === 0) return [];
  const keys = claimed.map((c) => outboxKey(c.booking_ref));
  const sent = await sql<
    { idempotency_key: string }[]
  >`select idempotency_key from outbox where idempotency_key in ${sql(keys)}`;
  const done = new Set(sent.map((s) => s.idempotency_key));
  return claimed.map((c) => c.booking_ref).filter((ref) => !done.has(outboxKey(ref)));
}
