-- A driver online whose app has stopped sending its position is texted once before dispatch passes
-- them over (issue 24): which silence they were warned about, and when, so each silence is told
-- once and a phone whose signal comes and goes is texted at most once an hour.
alter table drivers
  add column location_warned_for timestamptz,
  add column location_warned_at timestamptz;
