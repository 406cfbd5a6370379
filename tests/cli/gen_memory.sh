#!/usr/bin/env bash
# `dtb gen --memory SIZE`: a bound too small for the largest unit fails
# before anything is built, naming the least bound that would do; that bound
# works; malformed sizes are usage errors.
set -euo pipefail
dtb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if "$dtb" gen --max-pieces 4 --out "$work/t" --quiet --memory 64M > /dev/null 2> "$work/err"; then
  echo "a 64 MiB bound was accepted for 4 pieces"; exit 1
fi
grep -q "needs" "$work/err" || { echo "no explanation: $(cat "$work/err")"; exit 1; }
least=$(grep -o -- '--memory [0-9]*M' "$work/err" | grep -o '[0-9]*')
[ -n "$least" ] || { echo "no least bound named: $(cat "$work/err")"; exit 1; }
[ -z "$(ls -A "$work/t" 2> /dev/null)" ] || { echo "tables written before the memory check"; exit 1; }

"$dtb" gen --max-pieces 3 --out "$work/t" --quiet --memory "${least}M" > /dev/null
[ "$(ls "$work/t"/*.wdl | wc -l)" -eq 16 ] || { echo "the least bound did not build 2-3 pieces"; exit 1; }

for bad in 0 12X -5G 1.5G ""; do
  if "$dtb" gen --max-pieces 2 --out "$work/t" --quiet --memory "$bad" > /dev/null 2>&1; then
    echo "--memory '$bad' accepted"; exit 1
  fi
done
echo "gen --memory: too small refused up front (least ${least} MiB), bad sizes refused"
