#!/usr/bin/env bash
# The integration tests whose behaviour depends on the topology, a second time on the production
# one: Temporal Server 1.29.1 on Postgres (TEST_TOPOLOGY=cluster, test/support/global-setup.ts)
# instead of the dev server. Its output goes to a log; only a one-line result is printed, or the
# log's tail if it fails.
#
# Until issue 38 this ran the whole integration suite again (about 1,150 s of CI's 2,200). Most of
# it is pages, texts, limits and rules that read and write Postgres the same way on either
# topology; `npm test` runs every file on the dev server. What differs is the Temporal server
# (persistence and visibility on Postgres, a frontend with its own limits, history service restarts)
# and the processes around it, so this run keeps to the files that drive each workflow through it:
# every workflow type started, updated, signalled, timed out and continued as new, crashes and
# faults, and `npm run start:cluster` itself (docs/tests.md, "The cluster run").
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
files=(
  # Only this topology has them: a Temporal Server restart, a frontend down, the cluster start.
  cluster-faults scripts
  # A worker killed mid-cascade, the cascade taken over from its history.
  crash
  # Bookings: start with update, cascade timers, offers, amendments, reassignment, settlement.
  booking-client booking-retries dispatch dispatch-claim offer-policy advance-allocation amend-overlap
  upcoming-jobs settlement v1-bookings
  # Quotes, partner jobs and their signed deliveries, the exchange between two instances.
  quote-workflow partner-intake partner-amendments partner-delivery partner-inbox exchange
  # Subscriptions and collections, licences, ops' actions and views of running workflows.
  billing driver-changes ops-actions ops-view worker-metrics
)
paths=()
for f in "${files[@]}"; do
  p="test/integration/$f.test.ts"
  if [ ! -f "$p" ]; then
    echo "cluster topology: $p is listed in scripts/test-cluster.sh but does not exist" >&2
    exit 1
  fi
  paths+=("$p")
done
log="$(mktemp)"
started=$(date +%s)
TEST_TOPOLOGY=cluster npx vitest run --project integration "${paths[@]}" >"$log" 2>&1
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
echo "cluster topology: ${#paths[@]} integration files exit 0, ${passed} tests ok in ${seconds} s"
rm -f "$log"
