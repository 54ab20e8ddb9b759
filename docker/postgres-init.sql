-- Runs once, when the postgres container initialises its data directory.
-- Temporal's auto-setup creates its databases itself; it needs a role allowed to.
create role temporal with login password 'temporal' createdb;
