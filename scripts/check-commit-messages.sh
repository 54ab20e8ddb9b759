#!/usr/bin/env bash
# Commit messages since the rule began (issue 34): a subject of at most 72 characters, then a blank
# line and a body saying why. A long subject hid the why in a line nobody reads whole, and an empty
# body left it nowhere. Commits before the rule are history and are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
# The formatter's commit, the first made under the rule.
FIRST=335083354b6c0d5d3594fafd5282649043062f43
if ! git cat-file -e "$FIRST^{commit}" 2>/dev/null; then
  echo "commit messages: history before HEAD not available (shallow clone); not checked"
  exit 0
fi
bad=0
for c in "$FIRST" $(git rev-list --no-merges "$FIRST"..HEAD); do
  subject=$(git log -1 --format=%s "$c")
  body=$(git log -1 --format=%b "$c" | sed '/^\s*$/d')
  if [ "${#subject}" -gt 72 ]; then
    echo "commit ${c:0:9}: subject is ${#subject} characters (at most 72): $subject" >&2
    bad=1
  fi
  if [ -z "$body" ]; then
    echo "commit ${c:0:9}: no body saying why: $subject" >&2
    bad=1
  fi
done
[ "$bad" = 0 ] && echo "commit messages: $(git rev-list --count "$FIRST"..HEAD) since the rule, each a short subject with a body"
exit "$bad"
