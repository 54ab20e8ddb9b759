#!/usr/bin/env bash
# Proves that a failing test turns each vitest project red: writes one deliberately failing test
# into the project's folder, runs just that file, and fails unless vitest exits non-zero.
set -uo pipefail
cd "$(dirname "$0")/.."
canaries=()
cleanup() { rm -f "${canaries[@]}"; }
trap cleanup EXIT

status=0
for project in unit workflows integration; do
  file="test/$project/zz-ci-canary-$$.test.ts"
  canaries+=("$file")
  printf "import { expect, it } from 'vitest';\nit('ci canary: must fail', () => expect(1).toBe(2));\n" > "$file"
  if npx vitest run --project "$project" "$file" > /tmp/ci-canary-$project.log 2>&1; then
    echo "ci-canary: a failing $project test left vitest exiting 0; npm test cannot be trusted" >&2
    tail -20 /tmp/ci-canary-$project.log >&2
    status=1
  else
    echo "ci-canary: a failing $project test makes vitest exit non-zero, as it must"
  fi
  rm -f "$file"
done
exit $status
