-- Issue 40 (3): accessibility as a rule of the booking (Equality Act 2010 ss.165-170, as amended by
-- the Taxis and Private Hire Vehicles (Disabled Persons) Act 2022; docs/accessibility.md). A booking
-- says what the passenger asked for beyond a wheelchair-accessible vehicle (its class, 'wav'): an
-- assistance dog travels with them, and they asked the driver to help them find the vehicle. None
-- is ever priced. A driver's medical exemption certificate, from the council, is kept with their
-- papers, and dispatch respects it for what it exempts and while it is in date.

alter table bookings
  add column assistance_dog boolean not null default false,
  add column help_finding_vehicle boolean not null default false;

-- s.169 (assistance dogs) and s.166 (wheelchair users' duties): a certificate exempts its holder
-- from carrying an assistance dog, or from the duties to a passenger in a wheelchair, on medical
-- grounds. Valid through its expiry day. Never a reason to charge anyone.
create table driver_medical_exemptions (
  driver_id text not null references drivers (id) on delete cascade,
  exempts text not null check (exempts in ('assistance_dogs', 'wheelchair_assistance')),
  certificate_number text not null check (length(certificate_number) between 1 and 60),
  issued_by text not null check (length(issued_by) between 2 and 120),
  expires_on date not null,
  recorded_by text not null,
  recorded_at timestamptz not null default now(),
  primary key (driver_id, exempts)
);

-- The needs the booking record lists (never priced), in the officer's words.
create function booking_needs(wheelchair boolean, assistance_dog boolean, help_finding_vehicle boolean) returns text
language sql immutable as $$
  select concat_ws(', ', case when wheelchair then 'wheelchair' end,
                         case when assistance_dog then 'assistance dog' end,
                         case when help_finding_vehicle then 'help finding the vehicle' end)
$$;

create or replace function booking_record_received() returns trigger language plpgsql as $$
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
    booking_needs(new.wheelchair, new.assistance_dog, new.help_finding_vehicle))
  on conflict (ref) do nothing;
  return null;
end $$;
