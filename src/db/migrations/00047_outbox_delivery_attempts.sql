-- Issue 39: what a provider said about a message it did not take. Until now a failed send left its
-- outbox row unsent and nothing else: Twilio's code (21610, the recipient texted STOP; 21211, not a
-- number) lived only in the activity's failure in Temporal, where support does not look.
--
-- attempts: provider calls made for the row (each retry of the activity that reached the provider).
-- last_error_*: the latest failure: the provider's HTTP status or SMTP reply, its own error code,
-- and the message (the transports never put credentials in it). refused_at: the provider refused
-- it for good (a retry cannot help); the row will never be sent.
alter table outbox
  add column attempts integer not null default 0,
  add column last_error_at timestamptz,
  add column last_error_status integer,
  add column last_error_code text,
  add column last_error text,
  add column refused_at timestamptz;
