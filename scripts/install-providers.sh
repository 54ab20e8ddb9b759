#!/usr/bin/env bash
# Installs the outside providers' own test servers into .tools/providers/ (issue 39), so the
# adapters are tested against what the providers wrote rather than a stub of ours:
#   stripe-mock  Stripe's OpenAPI-driven mock (MIT), built with go install (about 4 minutes once
#                per machine; Go's build cache makes the next clone's build seconds)
#   mailpit      an SMTP server with a REST API (MIT), built with go install (about 9 minutes once)
#   localstripe  a stateful fake Stripe (PyPI, GPL-3.0; run in tests only, never shipped)
#   prism        Stoplight's validating mock of an OpenAPI document (npm, Apache-2.0), for Twilio's
# Usage: bash scripts/install-providers.sh [stripe-mock|mailpit|localstripe|prism ...]
# (none named: all four). Prints one line per server: <name> <path of its executable>. A second run
# is a no-op. docs/providers.md says what each is used for.
set -euo pipefail
STRIPE_MOCK_VERSION=0.203.0
MAILPIT_VERSION=1.33.1
LOCALSTRIPE_VERSION=1.15.10
PRISM_VERSION=5.16.0
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.tools/providers"
mkdir -p "$dir"
# CI builds them beside other steps while tests may ask for one: one installer at a time.
exec 9>"$dir/.lock"
flock 9

go_tool() {
  local name=$1 module=$2 version=$3
  local out="$dir/$name-$version"
  if [ ! -x "$out/$name" ]; then
    command -v go >/dev/null 2>&1 || { echo "Building $name needs Go (https://go.dev/dl/)" >&2; exit 1; }
    echo "providers: building $name $version with go install (minutes, once per machine)" >&2
    mkdir -p "$out/.build"
    GOBIN="$out/.build" go install "$module@v$version" >&2
    mv -f "$out/.build/$name" "$out/$name"
    rmdir "$out/.build"
  fi
  echo "$name $out/$name"
}

localstripe() {
  local out="$dir/localstripe-$LOCALSTRIPE_VERSION"
  if [ ! -x "$out/venv/bin/python" ] || ! "$out/venv/bin/python" -c 'import localstripe' 2>/dev/null; then
    echo "providers: installing localstripe $LOCALSTRIPE_VERSION from PyPI" >&2
    rm -rf "$out"
    python3 -m venv "$out/venv" >&2
    "$out/venv/bin/pip" install --quiet "localstripe==$LOCALSTRIPE_VERSION" >&2
  fi
  # Its own command line binds every interface; dev/providers/stripe.ts starts it
  # on loopback from Python instead, so the path printed is the venv's interpreter.
  echo "localstripe $out/venv/bin/python"
}

prism() {
  local out="$dir/prism-$PRISM_VERSION"
  if [ ! -x "$out/node_modules/.bin/prism" ]; then
    echo "providers: installing @stoplight/prism-cli $PRISM_VERSION from npm" >&2
    rm -rf "$out"
    mkdir -p "$out"
    npm install --silent --no-audit --no-fund --no-save --prefix "$out" "@stoplight/prism-cli@$PRISM_VERSION" >&2
  fi
  echo "prism $out/node_modules/.bin/prism"
}

wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(stripe-mock mailpit localstripe prism)
for name in "${wanted[@]}"; do
  case "$name" in
    stripe-mock) go_tool stripe-mock github.com/stripe/stripe-mock "$STRIPE_MOCK_VERSION" ;;
    mailpit) go_tool mailpit github.com/axllent/mailpit "$MAILPIT_VERSION" ;;
    localstripe) localstripe ;;
    prism) prism ;;
    *) echo "unknown provider server: $name (stripe-mock, mailpit, localstripe, prism)" >&2; exit 2 ;;
  esac
done
