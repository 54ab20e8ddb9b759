-- Issue 22 (7): jobs exchanged between fleets (Cab Exchange). An exchange fleet is a partner of ours
-- that runs this same API at a base URL: a booking nobody of ours takes is sent to its
-- /api/public/v1/jobs (signed with the secret it gave us, our booking reference as the jobRef), and
-- its status events come back, Standard Webhooks signed, to our booking-status hook.

create table exchange_fleets (
  id text primary key,
  name text not null,
  -- Where its API runs (no trailing slash): jobs go to <base_url>/api/public/v1/jobs.
  base_url text not null,
  -- The partner id it registered us under: our x-partner when we sign to it.
  our_partner_id text not null,
  -- The HMAC signing secret it issued us, sealed (AES-256-GCM under PARTNER_SECRETS_KEY).
  signing_secret text not null,
  -- The whsec_ secret it issued when we registered our hook URL as our callback, sealed: its events
  -- to our booking-status hook are verified with it. Null until the hook is registered.
  webhook_secret text,
  -- Only approved fleets are offered jobs.
  approved boolean not null default true,
  -- The partner record the fleet sends us its own jobs under, if it does. A job that came from an
  -- exchange fleet is never handed on to one (one hop: two fleets with nobody free would otherwise
  -- pass a job back and forth for ever).
  partner_id text references partners (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- One row per booking and fleet it was handed to (a booking goes to a fleet at most once).
create table exchange_jobs (
  booking_ref text not null references bookings (ref),
  fleet_id text not null references exchange_fleets (id),
  -- sent: the fleet holds the job; refused: it answered no; released: it gave the job back
  -- (cancelled on its side); cancelled: we cancelled it there; failed: it could not be reached.
  state text not null default 'sent' check (state in ('sent', 'refused', 'released', 'cancelled', 'failed')),
  refusal text,
  -- Its booking reference and what its last applied event said.
  remote_ref text,
  remote_status text,
  last_sequence integer not null default 0,
  -- Its driver, as its events name them: what our passenger sees.
  driver_name text,
  driver_vehicle text,
  driver_plate text,
  sent_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (booking_ref, fleet_id)
);
create unique index exchange_jobs_holding on exchange_jobs (booking_ref) where state = 'sent';

-- Every event a fleet delivered to the hook, by its webhook-id: a redelivery is recognised.
create table exchange_inbox (
  fleet_id text not null references exchange_fleets (id),
  webhook_id text not null,
  booking_ref text,
  sequence integer,
  status text,
  received_at timestamptz not null default now(),
  primary key (fleet_id, webhook_id)
);

-- The status events of a partner's booking (migration 00011) name the driver; of a job an exchange
-- fleet holds, that is the fleet's driver, written to exchange_jobs in the same transaction as the
-- status (src/exchange/store.ts applyRemoteStatus). Otherwise as 00011 defined it.
create or replace function record_partner_event() returns trigger language plpgsql as $$
declare
  next_seq integer;
  registered boolean;
  d record;
begin
  if tg_op = 'UPDATE' and old.status is not distinct from new.status then
    return null;
  end if;
  select coalesce(max(seq), 0) + 1 into next_seq from partner_events where booking_ref = new.ref;
  select callback_url is not null into registered from partners where id = new.partner_id;
  if new.driver_id is not null then
    select name, vehicle_description, plate into d from drivers where id = new.driver_id;
  else
    select driver_name as name, driver_vehicle as vehicle_description, driver_plate as plate into d
      from exchange_jobs where booking_ref = new.ref and state = 'sent';
  end if;
  insert into partner_events (id, partner_id, booking_ref, seq, type, status, previous_status, job_ref, pickup_at,
                              driver_name, driver_vehicle, driver_plate, occurred_at, delivery)
  values (
    'evt_' || lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
           || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20),
    new.partner_id, new.ref, next_seq, 'booking.status_changed', new.status,
    case when tg_op = 'UPDATE' then old.status end, new.partner_job_ref, new.pickup_at,
    d.name, d.vehicle_description, d.plate, clock_timestamp(),
    case when coalesce(registered, false) then 'pending' else 'unregistered' end);
  if coalesce(registered, false) then
    perform pg_notify('partner_events', new.partner_id || ':' || new.ref);
  end if;
  return null;
end
$$;
