#!/usr/bin/env bash
# `npm run build`: the service as production runs it, in build/ — compiled JavaScript (no tsx), the
# SQL migrations beside the code that applies them, the pages' browser scripts bundled (read by
# src/pages/page-scripts.ts), and the open data. `node build/src/server.js`
# and `node build/src/worker.js` run it; the Dockerfile copies the same tree.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf build
npx tsc -p tsconfig.build.json
npx tsx scripts/build-page-scripts.ts build/src/pages/bundles
mkdir -p build/src/db/migrations
cp src/db/migrations/*.sql build/src/db/migrations/
cp -r data build/data
echo "build: $(find build -name '*.js' | wc -l) modules in build/"
