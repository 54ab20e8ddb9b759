#!/usr/bin/env bash
# The integration suite a second time, on the production topology: Temporal Server 1.29.1 on
# Postgres (TEST_TOPOLOGY=cluster, test/support/global-setup.ts) instead of the dev server. Its
# output goes to a log; only a one-line result is printed, or the log's tail if it fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
log="$(mktemp)"
started=$(date +%s)
TEST_TOPOLOGY=cluster npx vitest run --project integration >"$log" 2>&1
code=$?
seconds=$(( $(date +%s) - started ))
plain="$(sed 's/\x1b\[[0-9;]*m//g' "$log")"
passed=$(echo "$plain" | grep -E '^ +Tests +[0-9]' | tail -1 | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)
if [ "$code" -ne 0 ] || [ "${passed:-0}" = 0 ]; then
  echo "cluster topology: integration suite exit $code; the end of its log ($log):" >&2
  # The runner's own count lines are left out: this run's verdict is the line above.
  echo "$plain" | grep -vE '^ +(Tests|Test Files) +[0-9]' | tail -80 >&2
  exit 1
fi
echo "cluster topology: integration suite exit 0, ${passed} tests ok in ${seconds} s"
rm -f "$log"
