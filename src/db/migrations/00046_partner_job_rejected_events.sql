-- Issue 37: a job taken into the inbox is answered `processing` before it is applied; when the
-- job workflow then refuses it (an amend or cancel of a booking that has moved on, a job sent
-- after its cancel), its sender receives a job.rejected event in the booking's own seq, written
-- by a trigger in the same transaction as the outcome. A refused job with no booking behind it
-- has nothing to hang an event on: GET /api/public/v1/partner/jobs/{jobRef} shows its outcome.
--
-- `rejection` (job.rejected only): the job's action, and the outcome's code and message.

alter table partner_events add column rejection jsonb;

create function record_partner_job_rejection() returns trigger language plpgsql as $$
declare
  b record;
  next_seq integer;
  registered boolean;
  d record;
begin
  if old.outcome is not null or new.outcome is null or new.outcome ->> 'outcome' <> 'rejected' then
    return null;
  end if;
  -- Locked as a status change locks it, so this event and the booking's own cannot number alike.
  select ref, status, pickup_at, driver_id into b from bookings
   where ref = coalesce(new.outcome ->> 'bookingRef', new.booking_ref) and partner_id = new.partner_id
     for update;
  if not found then
    return null;
  end if;
  select coalesce(max(seq), 0) + 1 into next_seq from partner_events where booking_ref = b.ref;
  select callback_url is not null into registered from partners where id = new.partner_id;
  select name, vehicle_description, plate into d from drivers where id = b.driver_id;
  insert into partner_events (id, partner_id, booking_ref, seq, type, status, previous_status, job_ref, pickup_at,
                              driver_name, driver_vehicle, driver_plate, occurred_at, delivery, rejection)
  values (
    'evt_' || lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
           || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20),
    new.partner_id, b.ref, next_seq, 'job.rejected', b.status, null, new.job_ref, b.pickup_at,
    d.name, d.vehicle_description, d.plate, clock_timestamp(),
    case when coalesce(registered, false) then 'pending' else 'unregistered' end,
    jsonb_build_object('action', new.action, 'code', new.outcome ->> 'code', 'message', new.outcome ->> 'message'));
  if coalesce(registered, false) then
    perform pg_notify('partner_events', new.partner_id || ':' || b.ref);
  end if;
  return null;
end
$$;

create trigger partner_inbox_rejections
  after update of outcome on partner_inbox
  for each row execute function record_partner_job_rejection();
