-- Issue 40: the booking record an operator keeps for its licensing authority (docs/records.md).
-- The Statutory Taxi and Private Hire Vehicle Standards (2020, updated 2022) list what it holds;
-- London's record adds any fare quoted and the operator a booking was sub-contracted to.
--
-- Written by triggers on the tables every path already writes (a booking created by any route, a
-- driver allocated or released by dispatch, ops, an operator or a fleet, a cancellation, a job
-- handed to an exchange fleet), in the same transaction: no path can skip it. Each row is a
-- snapshot (a driver's name and licence as they were at the allocation, not as they are today),
-- and none is ever updated; rows go only when their retention ends (deleteExpiredRecords).

-- When a booking's personal data was erased, its record's retention over.
alter table bookings add column personal_erased_at timestamptz;

-- One per booking: what was asked, when and by whom, as received.
create table booking_records (
  ref text primary key,
  -- The licensing area of the pickup (the tariff area, e.g. 'manchester'): the authority whose
  -- officer may ask for the record, and whose retention applies.
  area_id text not null,
  received_at timestamptz not null,
  -- How the booking came (online, partner, supplier, operator, ai_assistant) and who took it.
  channel text not null,
  taken_by text not null,
  passenger_name text not null,
  pickup text not null,
  pickup_at timestamptz not null,
  destination text not null,
  -- The fare quoted to the passenger, in pence, and what it rests on (tariff, quote, partner).
  fare_quoted_pence integer not null,
  fare_basis text not null,
  -- The operator that passed us the booking, when it was sub-contracted to us (an exchange hop).
  subcontracted_from text,
  -- The wheelchair, assistance-dog and find-the-vehicle needs asked for (never priced).
  needs text not null default '',
  recorded_at timestamptz not null default now()
);
create index booking_records_area on booking_records (area_id, received_at);
create index booking_records_received on booking_records (received_at);

-- What happened to it since: each allocation and release (with the driver and vehicle as they
-- were), each amendment of where or when, each hand-over to another operator, and its end.
create table booking_record_entries (
  id bigint generated always as identity primary key,
  ref text not null references booking_records (ref) on delete cascade,
  kind text not null check (kind in ('allocated', 'released', 'amended', 'subcontracted', 'closed')),
  at timestamptz not null default now(),
  driver_id text,
  driver_name text,
  driver_licence_number text,
  driver_licensing_authority text,
  vehicle_registration text,
  -- Who allocated the driver: automatic dispatch (and its tier), the driver from the upcoming
  -- jobs board, an operator's dashboard, or a partner fleet.
  dispatched_by text,
  -- The receiving operator of a sub-contract, and its licence as on file.
  operator text,
  operator_licence text,
  detail text
);
create index booking_record_entries_ref on booking_record_entries (ref, id);

create function booking_records_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'booking records are never changed (docs/records.md)';
end $$;
create trigger booking_records_no_update before update on booking_records
  for each row execute function booking_records_immutable();
create trigger booking_record_entries_no_update before update on booking_record_entries
  for each row execute function booking_records_immutable();

create function booking_record_received() returns trigger language plpgsql as $$
begin
  insert into booking_records (ref, area_id, received_at, channel, taken_by, passenger_name, pickup,
                               pickup_at, destination, fare_quoted_pence, fare_basis, subcontracted_from, needs)
  values (
    new.ref, new.pickup_area, new.created_at,
    -- online: the booking page or an app on the public API; ai_assistant: the MCP server.
    case when new.source in ('v1_direct', 'v1_quote', 'agent_create', 'agent_instant') then 'online'
         when new.source = 'mcp' then 'ai_assistant'
         else new.source end,
    case when new.source in ('partner', 'supplier') then new.source || ' ' || coalesce(new.partner_id, '') || ' (job ' || coalesce(new.partner_job_ref, '') || ')'
         when new.source = 'operator' then 'operator ' || coalesce(new.operator_id, '')
         when new.source = 'mcp' then 'AI assistant ' || coalesce(new.agent, '')
         else 'the online booking service (the passenger''s own request' || coalesce(', via ' || new.agent, '') || ')' end,
    new.passenger_name,
    coalesce(new.pickup ->> 'label', new.pickup_query), new.pickup_at,
    coalesce(new.dropoff ->> 'label', new.dropoff_query),
    new.fare_pence, new.fare_source,
    case when new.exchange_origin = 'handed_over' then 'exchange partner ' || coalesce(new.partner_id, '') end,
    concat_ws(', ', case when new.wheelchair then 'wheelchair' end))
  on conflict (ref) do nothing;
  return null;
end $$;
create trigger bookings_record_received after insert on bookings
  for each row execute function booking_record_received();

-- A driver allocated or released, a pickup or drop-off or time changed, a booking ended.
create function booking_record_changed() returns trigger language plpgsql as $$
begin
  -- Its passenger's details erased at the record's end (deleteExpiredRecords): nothing to record.
  if new.personal_erased_at is not null then
    return null;
  end if;
  if new.driver_id is distinct from old.driver_id then
    if old.driver_id is not null then
      insert into booking_record_entries (ref, kind, driver_id, driver_name, driver_licence_number,
                                          driver_licensing_authority, vehicle_registration)
      select new.ref, 'released', d.id, d.name, d.driver_licence_number, d.licensing_authority,
             coalesce(nullif(d.vehicle_registration, ''), nullif(d.plate, ''))
        from drivers d where d.id = old.driver_id;
    end if;
    if new.driver_id is not null then
      insert into booking_record_entries (ref, kind, driver_id, driver_name, driver_licence_number,
                                          driver_licensing_authority, vehicle_registration, dispatched_by, operator)
      select new.ref, 'allocated', d.id, d.name, d.driver_licence_number, d.licensing_authority,
             coalesce(nullif(d.vehicle_registration, ''), nullif(d.plate, '')),
             case when new.operator_id is not null then 'operator ' || new.operator_id
                  when o.claimed_from_board then 'the driver, from the upcoming jobs board'
                  when o.tier is not null then 'automatic dispatch (' || o.tier || ' drivers)'
                  else 'ops or a fleet''s dispatcher' end,
             f.name
        from drivers d
        left join partner_fleets f on f.id = d.partner_fleet_id and d.tier = 'partner'
        left join lateral (
          select tier, claimed_from_board from offers
           where booking_ref = new.ref and driver_id = new.driver_id and status = 'accepted'
           order by offered_at desc limit 1) o on true
       where d.id = new.driver_id;
    end if;
  end if;
  if new.pickup_at is distinct from old.pickup_at or new.pickup is distinct from old.pickup
     or new.dropoff is distinct from old.dropoff then
    insert into booking_record_entries (ref, kind, detail)
    values (new.ref, 'amended', concat_ws('; ',
      'pickup ' || coalesce(new.pickup ->> 'label', new.pickup_query),
      'at ' || to_char(new.pickup_at at time zone 'Europe/London', 'YYYY-MM-DD HH24:MI'),
      'to ' || coalesce(new.dropoff ->> 'label', new.dropoff_query)));
  end if;
  if new.status is distinct from old.status and new.status in ('completed', 'cancelled', 'no_show') then
    insert into booking_record_entries (ref, kind, detail)
    values (new.ref, 'closed', concat_ws(': ', new.status, new.cancel_reason));
  end if;
  return null;
end $$;
create trigger bookings_record_changed after update of driver_id, pickup_at, pickup, dropoff, status on bookings
  for each row execute function booking_record_changed();

-- A job handed to another operator running this API (docs/exchange.md): a sub-contract.
create function booking_record_subcontracted() returns trigger language plpgsql as $$
begin
  insert into booking_record_entries (ref, kind, operator, detail)
  select new.booking_ref, 'subcontracted', f.name, 'exchange fleet ' || f.id
    from exchange_fleets f where f.id = new.fleet_id;
  return null;
end $$;
create trigger exchange_jobs_record_subcontracted after insert on exchange_jobs
  for each row execute function booking_record_subcontracted();

-- How long each authority's records are kept, in months; an authority with no row keeps them for
-- the default (BOOKING_RECORD_RETENTION_MONTHS, 12). Set by staff (PUT /api/ops/records/retention).
create table booking_record_retention (
  area_id text primary key,
  months integer not null check (months between 1 and 120),
  set_by text not null,
  set_at timestamptz not null default now()
);

-- Every export an officer was given: by whom, of what.
create table booking_record_exports (
  id bigint generated always as identity primary key,
  staff_id uuid not null,
  staff_name text not null,
  area_id text not null,
  from_date date not null,
  to_date date not null,
  format text not null check (format in ('csv', 'json')),
  bookings integer not null,
  reason text not null,
  at timestamptz not null default now()
);

-- Bookings made before this migration have their record from what their row holds now.
insert into booking_records (ref, area_id, received_at, channel, taken_by, passenger_name, pickup, pickup_at,
                             destination, fare_quoted_pence, fare_basis, needs)
select ref, pickup_area, created_at,
       case when source in ('v1_direct', 'v1_quote', 'agent_create', 'agent_instant') then 'online'
            when source = 'mcp' then 'ai_assistant' else source end,
       source || ' (recorded from the booking as it stood on ' || to_char(now(), 'YYYY-MM-DD') || ')',
       passenger_name, coalesce(pickup ->> 'label', pickup_query), pickup_at,
       coalesce(dropoff ->> 'label', dropoff_query), fare_pence, fare_source,
       case when wheelchair then 'wheelchair' else '' end
  from bookings
on conflict (ref) do nothing;
