-- A driver who accepted a job well ahead confirms it on the day (issue 24): when they were asked,
-- and when they confirmed, for the driver app to offer the button and the ops view to show it.
alter table bookings
  add column driver_confirm_asked_at timestamptz,
  add column driver_confirmed_at timestamptz;
