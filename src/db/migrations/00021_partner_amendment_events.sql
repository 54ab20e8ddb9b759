-- Issue 22: every amendment applied to a partner's, operator's or supplier's booking is an event its
-- sender receives and lists, like a status change (migration 00011): type booking.amended, in the
-- booking's own seq, written by a trigger in the same transaction as the change.
--
-- `changes` (booking.amended only): which of the job's fields changed ("pickupAt", "pickup",
-- "dropoff", "fare", "passengers", "vehicleType", "wheelchair", "notes"), the job as it now stands and
-- as it stood (pickup time, places, fare in GBP). Notes are named, never copied.

alter table partner_events add column changes jsonb;

create function record_partner_amendment() returns trigger language plpgsql as $$
declare
  changed text[] := array[]::text[];
  next_seq integer;
  registered boolean;
  d record;
begin
  if old.pickup_at is distinct from new.pickup_at then changed := array_append(changed, 'pickupAt'); end if;
  if old.pickup is distinct from new.pickup then changed := array_append(changed, 'pickup'); end if;
  if old.dropoff is distinct from new.dropoff then changed := array_append(changed, 'dropoff'); end if;
  if old.fare_pence is distinct from new.fare_pence then changed := array_append(changed, 'fare'); end if;
  if old.passengers is distinct from new.passengers then changed := array_append(changed, 'passengers'); end if;
  if old.vehicle_type is distinct from new.vehicle_type then changed := array_append(changed, 'vehicleType'); end if;
  if old.wheelchair is distinct from new.wheelchair then changed := array_append(changed, 'wheelchair'); end if;
  if old.notes is distinct from new.notes then changed := array_append(changed, 'notes'); end if;
  if cardinality(changed) = 0 then
    return null;
  end if;
  -- The booking row is locked by the write that fired this (see record_partner_event).
  select coalesce(max(seq), 0) + 1 into next_seq from partner_events where booking_ref = new.ref;
  select callback_url is not null into registered from partners where id = new.partner_id;
  select name, vehicle_description, plate into d from drivers where id = new.driver_id;
  insert into partner_events (id, partner_id, booking_ref, seq, type, status, previous_status, job_ref, pickup_at,
                              driver_name, driver_vehicle, driver_plate, occurred_at, delivery, changes)
  values (
    'evt_' || lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
           || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20),
    new.partner_id, new.ref, next_seq, 'booking.amended', new.status, null, new.partner_job_ref, new.pickup_at,
    d.name, d.vehicle_description, d.plate, clock_timestamp(),
    case when coalesce(registered, false) then 'pending' else 'unregistered' end,
    jsonb_build_object(
      'changed', to_jsonb(changed),
      'pickup', new.pickup ->> 'label',
      'dropoff', new.dropoff ->> 'label',
      'fare', round(new.fare_pence / 100.0, 2),
      'passengers', new.passengers,
      'vehicleType', new.vehicle_type,
      'wheelchair', new.wheelchair,
      'previous', jsonb_build_object(
        'pickupAt', to_char(old.pickup_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'pickup', old.pickup ->> 'label',
        'dropoff', old.dropoff ->> 'label',
        'fare', round(old.fare_pence / 100.0, 2))));
  if coalesce(registered, false) then
    perform pg_notify('partner_events', new.partner_id || ':' || new.ref);
  end if;
  return null;
end
$$;

create trigger bookings_partner_amendments
  after update of pickup_at, pickup, dropoff, fare_pence, passengers, vehicle_type, wheelchair, notes on bookings
  for each row when (new.partner_id is not null)
  execute function record_partner_amendment();
