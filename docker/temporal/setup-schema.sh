#!/bin/sh
# Creates or migrates Temporal's two Postgres databases (persistence and SQL visibility) to the
# schema the server version expects. Used by `npm run start:cluster` and the cluster tests (through
# dev/temporal-server.ts) and by docker-compose.yml's one-shot temporal-schema job, so both set up
# the same thing. Safe to run again: each step is a no-op on a database already at that step.
#
# Environment: TEMPORAL_DB_HOST, TEMPORAL_DB_PORT, TEMPORAL_DB_USER, TEMPORAL_DB_PASSWORD,
# TEMPORAL_DB_NAME (temporal), TEMPORAL_VISIBILITY_DB_NAME (temporal_visibility),
# TEMPORAL_SQL_TOOL (temporal-sql-tool on PATH), TEMPORAL_SCHEMA_DIR (the folder holding
# postgresql/v12/; /etc/temporal/schema in the admin-tools image).
set -eu

tool="${TEMPORAL_SQL_TOOL:-temporal-sql-tool}"
schema="${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema}/postgresql/v12"

for db in "${TEMPORAL_DB_NAME:-temporal}:temporal" "${TEMPORAL_VISIBILITY_DB_NAME:-temporal_visibility}:visibility"; do
  name="${db%%:*}"
  kind="${db#*:}"
  run() {
    # The password goes through the environment, not argv, so `ps` does not show it.
    SQL_PASSWORD="${TEMPORAL_DB_PASSWORD:-temporal}" "$tool" \
      --plugin postgres12 \
      --endpoint "${TEMPORAL_DB_HOST:-127.0.0.1}" \
      --port "${TEMPORAL_DB_PORT:-5432}" \
      --user "${TEMPORAL_DB_USER:-temporal}" \
      --database "$name" \
      "$@"
  }
  # create-database answers success when the database exists; setup-schema -v 0.0 only adds the
  # version tables if missing; update-schema applies the versions above the recorded one.
  run create-database
  run setup-schema -v 0.0
  run update-schema -d "$schema/$kind/versioned"
  echo "temporal schema: $name ($kind) up to date"
done
