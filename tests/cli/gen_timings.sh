#!/usr/bin/env bash
# `dtb gen --timings F` writes one tab-separated line per unit it solved:
# a header, then units in build order with their positions (both tables) and
# non-negative phase times; units whose tables were already present are not
# listed, and an unwritable path is an error.
set -euo pipefail
dtb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$dtb" gen --max-pieces 3 --out "$work/t" --quiet --timings "$work/timings.tsv" > /dev/null
header=$(head -1 "$work/timings.tsv")
[ "$header" = $'unit\tpositions\trounds\tallocate_s\tfirst_pass_s\tpropagate_s\tfinalize_s\twrite_s' ] ||
  { echo "bad header: $header"; exit 1; }
units=$(tail -n +2 "$work/timings.tsv" | wc -l)
tables=$(ls "$work/t"/*.wdl | wc -l)
[ "$units" -gt 0 ] && [ "$units" -le "$tables" ] || { echo "$units units for $tables tables"; exit 1; }
# Every unit's positions = the sum of its tables' positions (dtb stats).
declare -A stat
while read -r material positions; do stat[$material]=$positions; done < <(
  "$dtb" stats --json --quiet "$work/t" | python3 -c '
import json, sys
for t in json.load(sys.stdin): print(t["material"], t["positions"])')
reverse() { local w=${1%v*} b=${1#*v}; echo "${b}v${w}"; }
while IFS=$'\t' read -r unit positions rounds rest; do
  r=$(reverse "$unit")
  expected=${stat[$unit]}
  [ "$r" != "$unit" ] && expected=$((expected + ${stat[$r]}))
  [ "$positions" = "$expected" ] || { echo "$unit: $positions positions, tables hold $expected"; exit 1; }
  for v in $rest; do awk -v v="$v" 'BEGIN { exit !(v >= 0) }' || { echo "$unit: bad time $v"; exit 1; }; done
done < <(tail -n +2 "$work/timings.tsv")

# A rerun finds every table present: no unit solved, only the header.
"$dtb" gen --max-pieces 3 --out "$work/t" --quiet --timings "$work/again.tsv" > /dev/null
[ "$(wc -l < "$work/again.tsv")" -eq 1 ] || { echo "rerun listed units"; exit 1; }

if "$dtb" gen --max-pieces 2 --out "$work/t" --quiet --timings "$work/no/such/dir/f.tsv" > /dev/null 2>&1; then
  echo "unwritable --timings path accepted"; exit 1
fi
echo "gen --timings: $units units, positions agree with dtb stats"
