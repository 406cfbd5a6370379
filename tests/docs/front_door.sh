#!/usr/bin/env bash
# The front door stays one: README.md short enough to read, every link between
# the README and docs/ resolving, and no tracked text telling the history of
# the project's making (a development session or tracker number: that is git log's job).
# usage: front_door.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-${DTB_SOURCE_DIR:-$(dirname "$0")/../..}}"
status=0
fail() { echo "FAIL: $*"; status=1; }

lines=$(wc -l < README.md)
[ "$lines" -le 250 ] || fail "README.md has $lines lines (at most 250: details belong in docs/)"

# Tracked files when this is a git checkout, else every file but build trees.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files)
else
  mapfile -t files < <(find . -type f -not -path './build*' -not -path './.git/*' | sed 's|^\./||')
fi

# Development history: "session N" or "issue N" (an MPI session and a pytest
# fixture's session scope mean something in the code).
for f in "${files[@]}"; do
  case "$f" in tests/docs/front_door.sh|fuzz/corpus/*|*.svg) continue ;; esac
  [ -f "$f" ] && grep -Iq . "$f" 2>/dev/null || continue
  hits=$(grep -n -i -E '\b(session|issue)[ -]?#?[0-9]+' "$f" | grep -viE 'mpi.?session|scope=.session' || true)
  [ -z "$hits" ] || fail "$f tells the project's history: $(echo "$hits" | head -1 | cut -c1-120)"
done

# Relative links of the guides: [text](path) and [text](path#anchor).
for doc in README.md CONTRIBUTING.md CHANGELOG.md docs/*.md python/README.md probe/examples/README.md compress/FORMAT.md; do
  [ -f "$doc" ] || continue
  dir=$(dirname "$doc")
  while IFS= read -r target; do
    path=${target%%#*}
    case "$path" in ''|http://*|https://*|mailto:*) continue ;; esac
    [ -e "$dir/$path" ] || fail "$doc links to $target, which does not exist"
  done < <(grep -oE '\]\([^) ]+\)' "$doc" | sed -E 's/^\]\(//; s/\)$//')
done

[ "$status" -eq 0 ] && echo "front door: README $lines lines, links resolve, no development history"
exit "$status"
