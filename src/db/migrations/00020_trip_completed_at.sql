-- Issue 20: the weekly fee line counts the trips a driver completed in the week (at their fare, or
-- what was recorded as paid when that is more), not the payments recorded in it: a 0 GBP or 1p
-- settlement, or none at all, no longer keeps a busy week under 500 GBP. So each booking keeps
-- when it completed.
alter table bookings add column completed_at timestamptz;

-- Set in the same statement as the status, whichever route or activity completes the trip.
create function set_booking_completed_at() returns trigger language plpgsql as $$
begin
  if new.status = 'completed' and new.completed_at is null
     and (tg_op = 'INSERT' or old.status is distinct from 'completed') then
    new.completed_at := clock_timestamp();
  end if;
  return new;
end
$$;

create trigger bookings_completed_at
  before insert or update of status on bookings
  for each row execute function set_booking_completed_at();

-- Trips completed before this column: when their story says they completed, else their last change.
update bookings b
   set completed_at = coalesce(
         (select min(c.changed_at) from booking_status_changes c where c.booking_ref = b.ref and c.status = 'completed'),
         b.updated_at)
 where b.status = 'completed' and b.completed_at is null;

create index bookings_driver_completed on bookings (driver_id, completed_at) where completed_at is not null;
