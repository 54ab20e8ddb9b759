-- Dispatch asks for the nearest online drivers of a tier first (a nearest-neighbour scan of this
-- index, bounded by the tier's reach), so a round reads a window of drivers however many are near
-- the pickup, and drivers who are off duty cost it nothing. Longitude is scaled by 0.62 (the cosine
-- of Great Britain's middle latitude) so that distance in the index orders drivers almost as
-- distance on the ground does; the ranking then measures each driver in the window exactly.
create index drivers_online_nearest on drivers using gist (point(lon * 0.62::float8, lat)) where online;
