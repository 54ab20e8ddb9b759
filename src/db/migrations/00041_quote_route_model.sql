-- How a quote's distance was found (the router's model: "osrm", "estimate:circuity-v1"), so a
-- booking that redeems it keeps the same provenance as one priced on the spot (issue 36, item 6).
-- Null for quotes made before this column: their receipts say nothing of the route.
alter table quotes add column route_model text;
