#!/usr/bin/env bash
# The libFuzzer harnesses of fuzz/ in the suite: a clang build of their own
# (libFuzzer, AddressSanitizer and UBSan need clang; the main build may be
# GCC) in BUILD_DIR/fuzz-clang, then each harness for a few seconds over its
# committed seed corpus. Any crash, sanitizer report, leak, timeout or failed
# check fails the test; the input that did it is kept in
# BUILD_DIR/fuzz-artifacts/ to be replayed with `HARNESS FILE`.
#
#   run_fuzzers.sh SOURCE_DIR BUILD_DIR DTB_BINARY [SECONDS_EACH]
#
# DTB_BINARY (the main build's `dtb`) makes the small table set (2-3 pieces,
# with .dtw/.rule and .mtc; seconds) that the probe and serve harnesses read
# through $DTB_FUZZ_TABLES.
set -euo pipefail
src=$1 build=$2 dtb=$3 seconds=${4:-5}
fuzz_build=$build/fuzz-clang
tables=$build/fuzz-tables
artifacts=$build/fuzz-artifacts
harnesses=(fuzz_notation fuzz_table_reader fuzz_sidecars fuzz_serve_api fuzz_probe_lines)

if ! command -v clang++ >/dev/null || ! command -v clang >/dev/null; then
  echo "run_fuzzers: clang is not installed (scripts/setup installs it)" >&2
  exit 1
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
generator=()
command -v ninja >/dev/null && [ ! -f "$fuzz_build/Makefile" ] && generator=(-G Ninja)

# -O1: fast enough to fuzz and quicker to build than -O2; -g: reports name
# file and line. No NDEBUG: assertions stay on.
CC=clang CXX=clang++ cmake -S "$src" -B "$fuzz_build" "${generator[@]}" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" \
  -DDTB_BUILD_FUZZERS=ON -DDTB_BUILD_TESTS=OFF -DDTB_BUILD_BENCH=OFF -DDTB_BUILD_PYTHON=OFF -DDTB_MPI=OFF >/dev/null
cmake --build "$fuzz_build" -j"$(nproc)" --target "${harnesses[@]}" >/dev/null

rm -rf "$tables"
"$dtb" gen --max-pieces 3 --dtw --mtc --out "$tables" --threads 1 --quiet >/dev/null
export DTB_FUZZ_TABLES=$tables

mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One harness over its corpus; its exit status goes to a file, so that the
# harnesses can run side by side, one a core (the suite gives this test all
# of them), and be reported in order afterwards.
fuzz_one() {
  local h=$1 status=0
  # New inputs go to the first corpus directory, a scratch one: the
  # committed seeds in the second are only read.
  mkdir -p "$work/$h"
  "$fuzz_build/fuzz/$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/$h-" "$work/$h" "$src/fuzz/corpus/$h" >"$work/$h.log" 2>&1 || status=$?
  echo "$status" >"$work/$h.status"
}
running=0
for h in "${harnesses[@]}"; do
  if ((running >= $(nproc))); then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$h" &
  running=$((running + 1))
done
wait

failed=0
for h in "${harnesses[@]}"; do
  if [ "$(cat "$work/$h.status")" = 0 ]; then
    echo "$h: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$work/$h.log")"
  else
    echo "$h: FAILED" >&2
    tail -n 40 "$work/$h.log" >&2
    failed=1
  fi
done
exit $failed
