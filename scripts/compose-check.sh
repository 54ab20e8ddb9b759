#!/usr/bin/env bash
# Validates docker-compose.yml against the Compose Specification without a Docker engine
# (scripts/compose-check/: compose-go, the loader Docker Compose itself uses). Needs Go.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/scripts/compose-check"
go run . "$root/docker-compose.yml"
