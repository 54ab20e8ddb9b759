-- A driver's approved own rate prices the jobs offered to them (issue 24 item 7, docs/pricing.md
-- "Driver rates"). The fare a job card was offered at is kept with the offer; the booking keeps
-- the fare in force in fare_pence (what every lookup, receipt and settlement reads) and, once a
-- driver took it at an offer's fare, the fare quoted to the passenger in quoted_fare_pence, with
-- the driver's rate that priced it. rate_override_id is the approved partner rate the quoted fare
-- was priced with, if any: a driver's rate replaces it on the same meter, never stacks on it.
alter table offers
  add column fare_pence integer check (fare_pence >= 0),
  add column rate_override_id uuid;

alter table bookings
  add column quoted_fare_pence integer check (quoted_fare_pence >= 0),
  add column driver_rate_override_id uuid,
  add column rate_override_id uuid;
