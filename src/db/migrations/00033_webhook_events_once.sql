-- Issue 33: a payment provider's event is stored and acted on once, and what a flood of signed
-- events (each needs the provider's secret) can store is bounded by what the service itself
-- created: src/billing/invoices.ts (applyBillingWebhook), src/routes/payment-webhooks.ts,
-- docs/billing.md "The webhook".

-- The billing webhook's events, one per event id of each provider (Stripe's evt_ ids and the test
-- double's webhook-ids are different namespaces). Only events that act on an invoice being
-- collected are kept: its one paying event ('paid'), and at most WEBHOOK_EVENTS_PER_INVOICE others
-- ('failed', and 'short': a success for less than the total). Ignored events were never acted on.
delete from billing_webhook_events where outcome not in ('succeeded', 'failed') or invoice_key is null;
-- A success paid its invoice only if the invoice says so; any other was short (or not yet taken
-- in by its workflow, which takes one payment only, so calling it short loses nothing).
update billing_webhook_events e
   set outcome = case when exists (select 1 from invoice_collections c where c.paid_event_id = e.id) then 'paid' else 'short' end
 where outcome = 'succeeded';
alter table billing_webhook_events drop constraint billing_webhook_events_pkey;
alter table billing_webhook_events add primary key (provider, id);
alter table billing_webhook_events add constraint billing_webhook_events_outcome check (outcome in ('paid', 'short', 'failed'));
alter table billing_webhook_events alter column invoice_key set not null;
create index billing_webhook_events_invoice on billing_webhook_events (provider, invoice_key);

-- The passenger payment webhook (src/routes/payment-webhooks.ts): a booking is settled once
-- (payment_records' settlement key), so one event is kept per booking: its first settling one.
-- 'processing' rows were claims a process died holding; the settlement is idempotent, so the
-- provider's retry settles (or finds the settlement) afresh.
delete from payment_webhook_events where outcome <> 'settled' or booking_ref is null;
delete from payment_webhook_events e
 where exists (select 1 from payment_webhook_events o
                where o.booking_ref = e.booking_ref and (o.received_at, o.id) < (e.received_at, e.id));
alter table payment_webhook_events alter column booking_ref set not null;
create unique index payment_webhook_events_one_per_booking on payment_webhook_events (booking_ref);
