-- The ops bookings board searches every booking by the passenger's phone and by a partner's job
-- reference (issue 24): without these, each search reads the whole table.
create index bookings_passenger_phone on bookings (passenger_phone);
create index bookings_partner_job_ref on bookings (partner_job_ref) where partner_job_ref is not null;
