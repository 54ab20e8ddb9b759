-- Issue 24 (item 8): the subscription as spec 3 and 8 price it, and its collection. Every weekly
-- invoice is itemised (weekly fee, SMS pass-through, jobs from the named third-party source, card
-- processing), partners get their own weekly invoice (SMS for their jobs), and each invoice with
-- something to collect is collected through a payment provider. docs/billing.md.

-- The driver's invoice carries the two new charges; its total stays the sum of its parts. Rows
-- written before this migration owe neither, so the defaults keep them consistent.
alter table driver_invoices
  add column third_party_jobs integer not null default 0 check (third_party_jobs >= 0),
  add column third_party_pence integer not null default 0 check (third_party_pence >= 0),
  add column card_trips integer not null default 0 check (card_trips >= 0),
  add column card_pence integer not null default 0 check (card_pence >= 0);
-- The old check (total = fee + SMS) was declared unnamed: found by what it says.
do $$
declare c text;
begin
  select conname into c from pg_constraint
   where conrelid = 'driver_invoices'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%total_pence = (fee_pence + sms_pence)%';
  execute format('alter table driver_invoices drop constraint %I', c);
end $$;
alter table driver_invoices add constraint driver_invoices_total_is_parts
  check (total_pence = fee_pence + sms_pence + third_party_pence + card_pence);

-- A partner's week: SMS the service sent about the partner's jobs (to their passengers; texts to
-- drivers are on the drivers' invoices). Immutable like the drivers'.
create table partner_invoices (
  partner_id text not null references partners (id),
  week_start timestamptz not null,
  week_end timestamptz not null check (week_end > week_start),
  sms_count integer not null check (sms_count >= 0),
  sms_pence integer not null check (sms_pence >= 0),
  total_pence integer not null check (total_pence = sms_pence),
  created_at timestamptz not null default now(),
  unique (partner_id, week_start)
);
create trigger partner_invoices_no_update before update or delete on partner_invoices
  for each row execute function records_immutable();

-- The lines of either kind of invoice, written with it in one transaction and never changed: what
-- the driver or partner was shown. Their amounts add up to the invoice's total.
create table invoice_lines (
  account_kind text not null check (account_kind in ('driver', 'partner')),
  account_id text not null,
  week_start timestamptz not null,
  position smallint not null check (position >= 0),
  kind text not null check (kind in ('weekly_fee', 'sms', 'third_party_jobs', 'card_processing')),
  quantity integer not null check (quantity >= 0),
  unit_pence integer check (unit_pence >= 0),            -- null: each one costs a different amount
  amount_pence integer not null check (amount_pence >= 0),
  description text not null,
  primary key (account_kind, account_id, week_start, kind)
);
create trigger invoice_lines_no_update before update or delete on invoice_lines
  for each row execute function records_immutable();

-- Collecting an invoice: the collection workflow invoice-collection:<kind>:<id>:<Monday> owns
-- every change. Paid is final (the update that marks it paid only matches an unpaid row).
create table invoice_collections (
  account_kind text not null check (account_kind in ('driver', 'partner')),
  account_id text not null,
  week_start timestamptz not null,
  total_pence integer not null check (total_pence > 0),
  status text not null check (status in ('unpaid', 'overdue', 'paid')),
  provider text not null,
  provider_ref text,
  pay_url text,
  pay_url_expires_at timestamptz,
  reminders_sent integer not null default 0 check (reminders_sent >= 0),
  last_failure text,
  overdue_at timestamptz,
  paid_at timestamptz,
  paid_amount_pence integer,
  paid_event_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (account_kind, account_id, week_start)
);
create index invoice_collections_open on invoice_collections (status, week_start) where status <> 'paid';

-- The provider's webhook deliveries by event id: a replay is answered from here and changes nothing.
create table billing_webhook_events (
  id text primary key,
  provider text not null,
  invoice_key text,
  outcome text not null,
  received_at timestamptz not null default now()
);
