#!/usr/bin/env bash
# `dtb stats` answers from the counts recorded at build time (<M>.stats), and
# they equal a recount from the tables; a damaged or stale record is not
# trusted (that table is recounted), and a missing one is recounted too.
set -euo pipefail
dtb=$1
tables=${DTB_TEST_TABLES:?the 2-4 piece tables}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$tables"/*.wdl "$tables"/*.stats "$work"/
[ "$(ls "$work"/*.stats | wc -l)" -eq "$(ls "$work"/*.wdl | wc -l)" ] || { echo "a table has no .stats"; exit 1; }

"$dtb" stats --json --quiet "$work" > "$work/recorded.json"
"$dtb" stats --json --quiet --recount "$work" > "$work/recounted.json"
cmp -s "$work/recorded.json" "$work/recounted.json" || { echo "recorded counts differ from a recount"; exit 1; }

# A lie in a record (its own checksum then fails), a record of another table
# (stale: the table's checksum differs), and a missing record: all recounted.
sed -i 's/^\(draughts-tb-stats 1 KMvK [0-9]*\) [0-9]*/\1 0/' "$work/KMvK.stats"
cp "$work/KvK.stats" "$work/KKvK.stats.tmp" && sed 's/ KvK / KKvK /' "$work/KKvK.stats.tmp" > "$work/KKvK.stats"
rm "$work/KKvK.stats.tmp" "$work/KMvM.stats"
"$dtb" stats --json --quiet "$work" > "$work/again.json"
cmp -s "$work/again.json" "$work/recounted.json" || { echo "a damaged, stale or missing record was trusted"; exit 1; }
echo "stats: recorded counts equal a recount; damaged, stale and missing records recounted"
