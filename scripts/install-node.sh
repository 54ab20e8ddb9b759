#!/usr/bin/env bash
# Prints the directory of a Node matching .nvmrc (Node 24 LTS), to put first on PATH:
#   export PATH="$(bash scripts/install-node.sh):$PATH"
# The machine's own node when it is already that major version; otherwise the npm registry's
# `node` package (the official binary) installed into .tools/, where the other pinned tools live.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
want="$(tr -d '[:space:]' < "$root/.nvmrc")"
major="${want%%.*}"
if command -v node >/dev/null 2>&1 && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi
bin="$root/.tools/node_modules/.bin"
if [ ! -x "$bin/node" ] || [ "$("$bin/node" --version)" != "v$want" ]; then
  npm install --prefix "$root/.tools" --no-save --no-audit --no-fund --loglevel=error "node@$want" >&2
fi
echo "$bin"
