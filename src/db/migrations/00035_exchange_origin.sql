-- Issue 33 (4): one hop, decided by the job's own origin. A job that came to us from an exchange
-- fleet is never handed to any fleet (docs/exchange.md, "One hop"). 00022 decided it at hand-over
-- time by matching the booking's sender against exchange_fleets.partner_id or the fleet's id, so a
-- fleet registered under another id than its partner record, without --partner, bounced a job
-- between two instances for ever. The origin is now recorded on the booking when it is taken in.

-- Why this booking is an exchange fleet's job, set when it is written (src/bookings/store.ts
-- insertBooking), null for every other booking:
--   handed_over:   its job came marked as handed over by an exchange (the x-exchange-hop header every
--                  instance of this service sends with a job it hands on, src/exchange/client.ts),
--                  whatever either side's registration says;
--   fleet_partner: its sender is our partner record of a registered exchange fleet
--                  (exchange_fleets.partner_id), for a fleet that does not say so itself.
alter table bookings add column exchange_origin text check (exchange_origin in ('handed_over', 'fleet_partner'));

-- The jobs a sender marked as handed over by an exchange (x-exchange-hop), by sender and jobRef,
-- written by the intake before the job's workflow books it: the booking takes its origin from here.
create table exchange_hop_jobs (
  partner_id text not null references partners (id),
  job_ref text not null,
  taken_at timestamptz not null default now(),
  primary key (partner_id, job_ref)
);

-- A fleet is registered with its partner record in one step now (scripts/register-exchange-fleet.ts):
-- the partner record first, the credentials the fleet gives us when it has registered us. Until
-- then the fleet is stored without them, and offered nothing.
alter table exchange_fleets alter column our_partner_id drop not null, alter column signing_secret drop not null;

-- Fleets registered before the partner record of the same id existed: 00022's rule counted that
-- partner as the fleet's at hand-over time; it is the fleet's link now.
update exchange_fleets f set partner_id = f.id, updated_at = now()
 where f.partner_id is null and exists (select 1 from partners p where p.id = f.id);

-- Open bookings that 00022's rule kept from being handed on keep that.
update bookings b set exchange_origin = 'fleet_partner'
 where b.partner_id is not null and b.status not in ('cancelled', 'completed', 'no_show')
   and exists (select 1 from exchange_fleets f where b.partner_id in (f.partner_id, f.id));
