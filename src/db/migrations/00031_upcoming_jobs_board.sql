-- The upcoming-jobs board (issue 24): drivers take pre-booked jobs ahead of their cascade.
-- An offer a driver took from the board rather than a job card, for the decision log and the ops view.
alter table offers add column claimed_from_board boolean not null default false;

-- The board's read: pre-booked jobs nobody holds, by pickup time (src/dispatch/board-store.ts).
create index bookings_upcoming_board on bookings (pickup_at)
  where status in ('scheduled', 'unassigned') and driver_id is null and operator_id is null;
