-- When the driver first opened a job card (its page, or the app's feed on screen), issue 25: the
-- booking is told once per card rather than on every reload and every 5-s poll of the app, and the
-- decision log and ops can see which cards were looked at.
alter table offers add column seen_at timestamptz;
