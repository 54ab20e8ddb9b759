#!/usr/bin/env bash
# Validates docker-compose.yml against the Compose Specification without a Docker engine
# (scripts/compose-check/: compose-go, the loader Docker Compose itself uses). Needs Go.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/scripts/compose-check"
# The file requires the application's secrets (${JOB_LINK_SECRET:?...}); validating it needs values,
# not these: random ones, so no value usable in a deployment is written anywhere.
for name in JOB_LINK_SECRET PARTNER_SECRETS_KEY OAUTH_SECRET; do
  if [ -z "${!name:-}" ]; then export "$name=$(head -c 36 /dev/urandom | base64)"; fi
done
go run . "$root/docker-compose.yml"
