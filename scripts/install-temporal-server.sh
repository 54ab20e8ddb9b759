#!/usr/bin/env bash
# Builds Temporal Server 1.29.1 (the server the pinned CLI's dev server embeds, and the
# temporalio/server image docker-compose.yml runs) and its SQL schema tool, keeps the module's
# Postgres schemas beside them, and builds the Web UI server 2.42.1 (the temporalio/ui image's),
# for `npm run start:cluster` and the cluster test run. Prints the folder holding temporal-server,
# temporal-sql-tool, temporal-ui-server and schema/postgresql/v12/. A second run is a no-op. There
# is no prebuilt binary on a package registry, hence `go install` (about 4 minutes on 2 cores, once).
set -euo pipefail
VERSION=1.29.1
UI_VERSION=2.42.1
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.tools/temporal-server-${VERSION}"

if [ -x "$dir/temporal-server" ] && [ -x "$dir/temporal-sql-tool" ] && [ -x "$dir/temporal-ui-server" ] \
   && [ -d "$dir/schema/postgresql/v12/temporal/versioned" ]; then
  echo "$dir"; exit 0
fi
command -v go >/dev/null 2>&1 || { echo "Building Temporal Server ${VERSION} needs Go (https://go.dev/dl/)" >&2; exit 1; }

mkdir -p "$dir"
echo "Building Temporal Server ${VERSION} with go install into $dir (a few minutes, once)" >&2
build="$dir/.build"
mkdir -p "$build"
# go install names binaries after their package folders (server, sql); they get the names the
# temporalio images use.
GOBIN="$build" go install "go.temporal.io/server/cmd/server@v${VERSION}" >&2
GOBIN="$build" go install "go.temporal.io/server/cmd/tools/sql@v${VERSION}" >&2
mv -f "$build/server" "$dir/temporal-server"
mv -f "$build/sql" "$dir/temporal-sql-tool"
# The UI's assets are embedded in its Go module, so this one binary serves the whole Web UI.
GOBIN="$build" go install "github.com/temporalio/ui-server/v2/cmd/server@v${UI_VERSION}" >&2
mv -f "$build/server" "$dir/temporal-ui-server"
rmdir "$build"

module="$(go env GOMODCACHE)/go.temporal.io/server@v${VERSION}"
rm -rf "$dir/schema"
mkdir -p "$dir/schema/postgresql"
cp -R "$module/schema/postgresql/v12" "$dir/schema/postgresql/"
# The module cache is read-only; the copy need not be.
chmod -R u+w "$dir/schema"
echo "$dir"
