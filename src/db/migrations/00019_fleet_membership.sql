-- Issue 20 (5): a driver joins an operator's fleet only when the operator (or staff, with the fleet
-- in front of them) grants it; an applicant naming a fleet only asks. drivers.partner_fleet_id now
-- holds granted membership and nothing else, so everything that reads it (central dispatch of the
-- partner tier, the operator's own fleet dispatch, fleet status reports) reads granted membership.

-- What an applicant asked for, and what became of it. At most one open request per driver.
create table driver_fleet_requests (
  id bigint generated always as identity primary key,
  driver_id text not null references drivers (id),
  fleet_id text not null references partner_fleets (id),
  status text not null default 'pending' check (status in ('pending', 'granted', 'refused', 'closed')),
  requested_at timestamptz not null default now(),
  decided_at timestamptz
);
create unique index driver_fleet_requests_open on driver_fleet_requests (driver_id) where status = 'pending';
create index driver_fleet_requests_fleet on driver_fleet_requests (fleet_id, status, requested_at);

-- Every change of membership, who made it and when: the record an operator or staff answer from.
create table driver_fleet_events (
  id bigint generated always as identity primary key,
  driver_id text not null references drivers (id),
  fleet_id text not null references partner_fleets (id),
  event text not null check (event in ('granted', 'refused', 'removed')),
  request_id bigint references driver_fleet_requests (id),
  by_kind text not null check (by_kind in ('operator', 'staff')),
  -- The operator's partner id, or the staff member's id.
  by_id text not null,
  -- The operator's API key that did it, when it came through one.
  by_key text,
  reason text,
  at timestamptz not null default now()
);
create index driver_fleet_events_driver on driver_fleet_events (driver_id, at);

-- Memberships applicants gave themselves (only the application route sets applied_at) were never
-- granted: they become requests for the operator to answer, and stop counting until it does.
insert into driver_fleet_requests (driver_id, fleet_id, status, requested_at)
  select id, partner_fleet_id, case when status = 'rejected' then 'closed' else 'pending' end, applied_at
    from drivers where applied_at is not null and partner_fleet_id is not null;
update drivers set partner_fleet_id = null where applied_at is not null and partner_fleet_id is not null;
