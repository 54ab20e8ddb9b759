-- Runs once, when the postgres container initialises its data directory.
-- docker/temporal/setup-schema.sh creates Temporal's databases itself; it needs a role allowed to.
create role temporal with login password 'temporal' createdb;
