-- Issue 38: which booking workflow runs each booking, written with its record. A card a driver opens
-- is kept in offers.seen_at; bookingWorkflowV2 reads it there when a card reaches its unseen cut,
-- so the driver's look costs the booking nothing until then (no signal, no workflow task). A
-- booking whose workflow does not read it (0.4.0's bookingWorkflow) is still told by a signal.
-- Null: a record written before this column, by 0.4.0's workflow (or an earlier version 2).
alter table bookings add column workflow_type text;
