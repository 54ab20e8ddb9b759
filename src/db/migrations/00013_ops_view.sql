-- Issue 12, the ops view: every booking's status changes (its story, whichever activity or route
-- made them) and the alerts ops were sent about it.

-- Written by a trigger in the same transaction as the change, so the story can miss nothing and
-- holds nothing that did not commit.
create table booking_status_changes (
  id bigint generated always as identity primary key,
  booking_ref text not null references bookings (ref),
  status text not null,
  previous_status text,
  driver_id text,
  changed_at timestamptz not null default clock_timestamp()
);
create index booking_status_changes_booking on booking_status_changes (booking_ref, id);

create function record_booking_status_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and old.status is not distinct from new.status then
    return null;
  end if;
  insert into booking_status_changes (booking_ref, status, previous_status, driver_id)
  values (new.ref, new.status, case when tg_op = 'UPDATE' then old.status end, new.driver_id);
  return null;
end
$$;

create trigger bookings_status_changes
  after insert or update of status on bookings
  for each row execute function record_booking_status_change();

-- One row per alert per booking: the claim that makes an alert go once however often the watcher
-- looks, and what the ops page shows beside the booking.
create table ops_alerts (
  booking_ref text not null references bookings (ref),
  kind text not null check (kind in ('unassigned_near_pickup')),
  pickup_at timestamptz not null,
  alerted_at timestamptz not null default now(),
  primary key (booking_ref, kind)
);

-- The watcher's question each minute: bookings without a driver, by pickup time.
create index bookings_unassigned_pickup on bookings (pickup_at)
  where driver_id is null and status in ('awaiting_confirmation', 'scheduled', 'dispatching', 'offered', 'unassigned');

-- The decision log by driver ("why was this driver not offered this job").
create index dispatch_decisions_driver on dispatch_decisions (driver_id, booking_ref);
