-- Issue 22, item 8: the partner sandbox (docs/partners.md, "Sandbox keys"). Jobs and bookings made
-- under a sandbox partner or a sandbox API key are priced and acknowledged as usual, and dispatched
-- only to sandbox (test) drivers; a sandbox driver is never offered a live booking.

-- Every credential of a sandbox partner (its keys, signatures, shared secret) books in the sandbox.
alter table partners add column sandbox boolean not null default false;
-- A sandbox key of no partner (npm run api-key:create -- --sandbox): its v1 and agent bookings.
alter table api_keys add column sandbox boolean not null default false;
-- A test driver: offered sandbox bookings only, and only they are offered sandbox bookings.
alter table drivers add column sandbox boolean not null default false;
-- Decided once, when the booking is written, by the trigger below; never changed afterwards.
alter table bookings add column sandbox boolean not null default false;

-- A booking is in the sandbox when its sender is a sandbox partner, or when the request that claimed
-- its reference was made with a sandbox key (or a key of a sandbox partner): booking_requests names
-- that caller (owner 'key:<api key id>', src/bookings/request-owner.ts) before the booking's
-- workflow writes the row. A trigger, so every path that writes a booking (the booking workflow's
-- activities, whichever route started it) decides it the same way, without the workflow carrying it.
create function booking_sandbox() returns trigger language plpgsql as $$
begin
  new.sandbox := new.sandbox
    or exists (select 1 from partners p where p.id = new.partner_id and p.sandbox)
    or exists (
      select 1
        from booking_requests r
        join api_keys k on r.owner like 'key:%' and k.id::text = substr(r.owner, 5)
        left join partners p on p.id = k.partner_id
       where r.identity = new.request_identity and r.ref = new.ref
         and (k.sandbox or coalesce(p.sandbox, false)));
  return new;
end $$;

create trigger bookings_sandbox before insert on bookings for each row execute function booking_sandbox();

-- Sandbox bookings look for the few sandbox drivers near them without walking past every live one.
create index drivers_sandbox_nearest on drivers using gist (point(lon * 0.62::float8, lat)) where online and sandbox;
