-- Dispatch reads the drivers of one tier inside a lat/lon box around the pickup.
create index drivers_tier_location on drivers (tier, lat, lon);
