-- Stage 4, settlement: what the passenger paid the driver, written to the booking as an immutable
-- payment record. The service never takes payment; these rows are the driver's (or a payment
-- provider's) statement of what was received, and the source of a driver's weekly earnings.

create table payment_records (
  id bigint generated always as identity primary key,
  booking_ref text not null references bookings (ref),
  driver_id text references drivers (id),
  amount_pence integer not null check (amount_pence >= 0),
  -- cash, card (the driver's reader), payment_link (the driver's own link), bank_transfer, account
  method text not null check (method in ('cash', 'card', 'payment_link', 'bank_transfer', 'account')),
  -- driver (confirmed in the driver app or on the job card), provider (a signed webhook), ops
  recorded_by text not null check (recorded_by in ('driver', 'provider', 'ops')),
  -- A correction is a new record naming the one it replaces; nothing is ever edited.
  corrects bigint unique references payment_records (id),
  note text,
  -- One record per settlement however often its writer retries (the workflow's settlement key,
  -- a provider's event id).
  idempotency_key text not null unique,
  recorded_at timestamptz not null default now()
);
create index payment_records_booking on payment_records (booking_ref);
create index payment_records_driver on payment_records (driver_id, recorded_at);

-- Immutable means the database refuses it, whoever asks.
create function payment_records_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'payment records are immutable: % refused (record a correction instead)', tg_op
    using errcode = 'insufficient_privilege';
end;
$$;
create trigger payment_records_no_update before update or delete on payment_records
  for each row execute function payment_records_immutable();
create trigger payment_records_no_truncate before truncate on payment_records
  for each statement execute function payment_records_immutable();

-- The records in force: each one no later record corrects.
create view effective_payment_records as
  select p.* from payment_records p
  where not exists (select 1 from payment_records c where c.corrects = p.id);

-- How a driver takes payment (shown on the pay-the-driver page): a payment link, bank transfer
-- details, a card reader, accounts. Cash is always accepted.
alter table drivers add column payment_options jsonb not null default '{}'::jsonb;
