#!/usr/bin/env bash
# `dtb gen --kings-only` builds every material without men up to N pieces and
# nothing else, and those tables are the ones a full build writes.
set -euo pipefail
dtb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$dtb" gen --kings-only --max-pieces 4 --out "$work/t" --quiet > /dev/null
built=$(cd "$work/t" && ls *.wdl | sort | tr '\n' ' ')
expected="KKKvK.wdl KKvK.wdl KKvKK.wdl KvK.wdl KvKK.wdl KvKKK.wdl "
[ "$built" = "$expected" ] || { echo "built: $built; expected: $expected"; exit 1; }
"$dtb" verify "$work/t" --checksums "${DTB_SOURCE_DIR:?}/tables/CHECKSUMS" --quiet > /dev/null
echo "gen --kings-only: the 6 kings-only tables of 2-4 pieces, as in tables/CHECKSUMS"
