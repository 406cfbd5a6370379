#!/usr/bin/env bash
# `dtb moves` agrees with the independent Python reference generator
# (tests/reference/movegen_ref.py) on random positions with men and kings.
set -euo pipefail
dtb=$1
ref="$(dirname "$0")/../reference/movegen_ref.py"
checked=0
while IFS=$'\t' read -r fen expected; do
  actual=$("$dtb" moves "$fen" 2>/dev/null | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$expected" != "$actual" ]; then
    echo "MISMATCH for $fen"; echo "reference: $expected"; echo "dtb:       $actual"; exit 1
  fi
  checked=$((checked + 1))
done < <(python3 "$ref" --random 300 2026)
[ "$checked" -eq 300 ] || { echo "only $checked positions checked"; exit 1; }
echo "movegen cross-check: $checked positions agree"
