#!/usr/bin/env bash
# `cmake --install` gives a usable package: install the build into a temporary
# prefix, build the example engine (probe/examples) against it with
# find_package(dtb), and let it play out won endings from the test tables.
set -euo pipefail
source_dir=${DTB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build_dir=${DTB_BUILD_DIR:-$(dirname "$1")/..}
tables=${DTB_TEST_TABLES:?DTB_TEST_TABLES must name the 2-4 piece tables}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
for f in include/dtb/dtb.h include/dtb/dtb.hpp; do
  [ -f "$work/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ls "$work"/prefix/lib*/cmake/dtb/dtbConfig.cmake >/dev/null
cmake -S "$source_dir/probe/examples" -B "$work/example" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" >/dev/null

# A king and a man against a man; three kings against a king off the long
# diagonal; Black to move in a won king-and-man ending.
for fen in "W:WK46,28:B3" "W:WK1,K2,K3:BK45" "B:W50:BK5,K1"; do
  echo "== $fen"
  out=$("$work/example/play_ending" "$tables" "$fen") || { echo "$out"; echo "FAIL: no win played out"; exit 1; }
  tail -1 <<<"$out"
done
echo "example engine built against the installed package: all wins played out"
