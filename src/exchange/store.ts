import { openSecret, sealSecret } from '../auth/secret-box.js';
import type { Sql } from '../db/sql.js';

// The exchange tables (migration 00022): the fleets we hand jobs to, which booking each holds, and
// the events they delivered to our hook (docs/exchange.md).

export const EXCHANGE_FLEET_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;

export interface ExchangeFleet {
  id: string;
  name: string;
  baseUrl: string;
  /** The partner id the fleet registered us under; null until it has given it to us. */
  ourPartnerId: string | null;
  /** Our partner record of the fleet: the jobs it sends us, never handed on (one hop). */
  partnerId: string | null;
  approved: boolean;
  /** Whether we hold the signing secret the fleet issued us (with its partner id for us). */
  credentialsStored: boolean;
  hookRegistered: boolean;
}

interface FleetRow {
  id: string;
  name: string;
  base_url: string;
  our_partner_id: string | null;
  signing_secret: string | null;
  webhook_secret: string | null;
  approved: boolean;
  partner_id: string | null;
}

const toFleet = (r: FleetRow): ExchangeFleet => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  ourPartnerId: r.our_partner_id,
  partnerId: r.partner_id,
  approved: r.approved,
  credentialsStored: r.our_partner_id !== null && r.signing_secret !== null,
  hookRegistered: r.webhook_secret !== null,
});

export interface NewExchangeFleet {
  id: string;
  name: string;
  baseUrl: string;
  /** Our partner record of the fleet (it must exist): the link that keeps its jobs from being handed on. */
  partnerId: string;
  /**
   * What the fleet gave us when it registered us as its partner: the id it gave us and the signing
   * secret it issued. Absent (a first registration, before the fleet has registered us), the fleet
   * is offered nothing; absent on a later run, the stored ones are kept.
   */
  credentials?: { ourPartnerId: string; signingSecret: string } | null;
  approved?: boolean;
}

/**
 * Registers (or updates) a fleet, linked to our partner record of it; its secret is sealed. A
 * changed secret or base URL replaces the old. The partner's open bookings count as the fleet's
 * jobs from now on (never handed on), whenever they came.
 */
export async function saveExchangeFleet(sql: Sql, secretsKey: string, f: NewExchangeFleet): Promise<ExchangeFleet> {
  if (!EXCHANGE_FLEET_ID_PATTERN.test(f.id))
    throw new Error(`exchange fleet id ${f.id} must match ${EXCHANGE_FLEET_ID_PATTERN}`);
  const baseUrl = f.baseUrl.replace(/\/+$/, '');
  const sealed = f.credentials ? sealSecret(secretsKey, f.credentials.signingSecret) : null;
  return sql.begin(async (tx) => {
    const [partner] = await tx<{ id: string }[]>`select id from partners where id = ${f.partnerId}`;
    if (!partner)
      throw new Error(`no partner ${f.partnerId}: an exchange fleet is registered with our partner record of it`);
    const [other] = await tx<
      { id: string }[]
    >`select id from exchange_fleets where partner_id = ${f.partnerId} and id <> ${f.id}`;
    if (other) throw new Error(`partner ${f.partnerId} is already exchange fleet ${other.id}'s`);
    const [row] = await tx<FleetRow[]>`
      insert into exchange_fleets (id, name, base_url, our_partner_id, signing_secret, approved, partner_id)
      values (${f.id}, ${f.name}, ${baseUrl}, ${f.credentials?.ourPartnerId ?? null}, ${sealed}, ${f.approved ?? true}, ${f.partnerId})
      on conflict (id) do update set name = excluded.name, base_url = excluded.base_url,
                                     our_partner_id = coalesce(excluded.our_partner_id, exchange_fleets.our_partner_id),
                                     signing_secret = coalesce(excluded.signing_secret, exchange_fleets.signing_secret),
                                     approved = excluded.approved, partner_id = excluded.partner_id, updated_at = now()
      returning *`;
    await tx`update bookings set exchange_origin = 'fleet_partner', updated_at = now()
              where partner_id = ${f.partnerId} and exchange_origin is null and status not in ('cancelled', 'completed', 'no_show')`;
    return toFleet(row!);
  });
}

export async function saveWebhookSecret(sql: Sql, secretsKey: string, fleetId: string, whsec: string): Promise<void> {
  await sql`update exchange_fleets set webhook_secret = ${sealSecret(secretsKey, whsec)}, updated_at = now() where id = ${fleetId}`;
}

export async function findExchangeFleet(sql: Sql, id: string): Promise<ExchangeFleet | null> {
  const [row] = await sql<FleetRow[]>`select * from exchange_fleets where id = ${id}`;
  return row ? toFleet(row) : null;
}

/** The fleet, the id it gave us and the secret we sign what we send it with; null until it gave them. */
export async function fleetWithSigningSecret(
  sql: Sql,
  secretsKey: string,
  id: string,
): Promise<(ExchangeFleet & { ourPartnerId: string; signingSecret: string }) | null> {
  const [row] = await sql<FleetRow[]>`select * from exchange_fleets where id = ${id}`;
  if (!row?.signing_secret || !row.our_partner_id) return null;
  return {
    ...toFleet(row),
    ourPartnerId: row.our_partner_id,
    signingSecret: openSecret(secretsKey, row.signing_secret),
  };
}

/** Every fleet whose events our hook can verify, with the whsec_ secret each issued us. */
export async function fleetsWithWebhookSecrets(
  sql: Sql,
  secretsKey: string,
): Promise<{ id: string; secret: string }[]> {
  const rows = await sql<{ id: string; webhook_secret: string }[]>`
    select id, webhook_secret from exchange_fleets where webhook_secret is not null order by id`;
  return rows.map((r) => ({ id: r.id, secret: openSecret(secretsKey, r.webhook_secret) }));
}

/**
 * The next approved fleet (by id) this booking has not been handed to; null when none is left, and
 * always for a booking whose origin is an exchange fleet (one hop: bookings.exchange_origin, recorded
 * when the job was taken in, migration 00035) and for a sandbox booking.
 */
export async function nextFleetFor(
  sql: Sql,
  ref: string,
  tried: readonly string[],
): Promise<{ id: string; name: string } | null> {
  const [row] = await sql<{ id: string; name: string }[]>`
    select f.id, f.name from exchange_fleets f
     where f.approved and f.webhook_secret is not null and f.signing_secret is not null and f.our_partner_id is not null
       and not (f.id = any(${[...tried]}::text[]))
       and not exists (select 1 from exchange_jobs j where j.booking_ref = ${ref} and j.fleet_id = f.id and j.state <> 'sent')
       -- One hop: a job that came from a fleet goes to none. A sandbox booking (migration 00023)
       -- never leaves this service.
       and not exists (select 1 from bookings b where b.ref = ${ref} and (b.exchange_origin is not null or b.sandbox))
     order by f.id limit 1`;
  return row ?? null;
}

export type ExchangeJobState = 'sent' | 'refused' | 'released' | 'cancelled' | 'failed';

/** The job is with the fleet (idempotent: a retried send finds its row). */
export async function markJobSent(sql: Sql, ref: string, fleetId: string, remoteRef: string | null): Promise<void> {
  await sql`
    insert into exchange_jobs (booking_ref, fleet_id, state, remote_ref) values (${ref}, ${fleetId}, 'sent', ${remoteRef})
    on conflict (booking_ref, fleet_id) do update set remote_ref = coalesce(excluded.remote_ref, exchange_jobs.remote_ref), updated_at = now()
     where exchange_jobs.state = 'sent'`;
}

/** The fleet no longer holds the job: refused it, gave it back, could not be reached, or we cancelled it. */
export async function markJobEnded(
  sql: Sql,
  ref: string,
  fleetId: string,
  state: Exclude<ExchangeJobState, 'sent'>,
  refusal: string | null = null,
): Promise<void> {
  await sql`
    insert into exchange_jobs (booking_ref, fleet_id, state, refusal) values (${ref}, ${fleetId}, ${state}, ${refusal})
    on conflict (booking_ref, fleet_id) do update set state = excluded.state, refusal = coalesce(excluded.refusal, exchange_jobs.refusal),
                                                      updated_at = now()`;
}

export interface ExchangeDriver {
  name: string;
  vehicle: string;
  plate: string;
}

/**
 * What the fleet's latest event said, applied to our booking in one transaction: its status and the
 * fleet's driver (what our passenger sees). Only a newer sequence than the last applied is taken,
 * so a late or repeated event changes nothing.
 */
export async function applyRemoteStatus(
  sql: Sql,
  u: {
    ref: string;
    fleetId: string;
    sequence: number;
    remoteStatus: string;
    status: string | null;
    driver: ExchangeDriver | null;
  },
): Promise<void> {
  await sql.begin(async (tx) => {
    const [job] = await tx<{ last_sequence: number }[]>`
      update exchange_jobs set last_sequence = ${u.sequence}, remote_status = ${u.remoteStatus},
             driver_name = ${u.driver?.name || null}, driver_vehicle = ${u.driver?.vehicle || null}, driver_plate = ${u.driver?.plate || null},
             updated_at = now()
       where booking_ref = ${u.ref} and fleet_id = ${u.fleetId} and state = 'sent' and last_sequence < ${u.sequence}
      returning last_sequence`;
    if (!job || !u.status) return;
    await tx`update bookings set status = ${u.status}, updated_at = now()
              where ref = ${u.ref} and status not in ('cancelled', 'completed', 'no_show')`;
  });
}

/** Whether this booking was handed to this fleet (whatever became of it). */
export async function exchangeJobExists(sql: Sql, ref: string, fleetId: string): Promise<boolean> {
  const [row] = await sql`select 1 from exchange_jobs where booking_ref = ${ref} and fleet_id = ${fleetId}`;
  return row !== undefined;
}

/** Records a delivered event by its webhook-id; false when it was delivered before (a redelivery). */
export async function recordInboxEvent(
  sql: Sql,
  e: { fleetId: string; webhookId: string; ref: string | null; sequence: number | null; status: string | null },
): Promise<boolean> {
  const rows = await sql`
    insert into exchange_inbox (fleet_id, webhook_id, booking_ref, sequence, status)
    values (${e.fleetId}, ${e.webhookId}, ${e.ref}, ${e.sequence}, ${e.status})
    on conflict (fleet_id, webhook_id) do nothing returning 1`;
  return rows.length > 0;
}
