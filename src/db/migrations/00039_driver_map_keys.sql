-- A driver's own map-service key (spec 8; issue 36, item 5): sealed like partners' signing secrets
-- (src/auth/secret-box.ts), so a database dump gives nobody the key. `key_ending` is its last four
-- characters, all the app ever shows back. `refused_at`: the provider turned the key down in use;
-- the service stops calling with it until the driver enters one again.
create table driver_map_keys (
  driver_id text primary key references drivers (id) on delete cascade,
  provider text not null check (provider in ('mapbox')),
  key_sealed text not null,
  key_ending text not null,
  set_at timestamptz not null default now(),
  refused_at timestamptz
);

-- Route requests made on a driver's own key, a row per driver per London day: what the driver can
-- hold up against their provider's bill. Never priced: the service bills nothing for maps.
create table driver_map_calls (
  driver_id text not null references drivers (id) on delete cascade,
  day date not null,
  calls integer not null default 0,
  primary key (driver_id, day)
);
