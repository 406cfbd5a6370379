#!/usr/bin/env bash
# dtb info: header and block report of a table file; damaged files fail with
# the error that names what is wrong.
set -uo pipefail
dtb=$1
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$dtb" gen --max-pieces 3 --only KKvK --out "$dir" --quiet >/dev/null 2>&1 || fail "dtb gen KKvK"
table=$dir/KKvK.wdl
[ -f "$table" ] || fail "no $table"

out=$("$dtb" info "$table") || fail "dtb info on a good table exited $?"
[[ "$out" == *"material KKvK, kind wdl, packing bits2"* ]] || fail "header line: $out"
[[ "$out" == *"format version 1, positions 58800"* ]] || fail "positions: $out"
[[ "$out" == *"all block checksums verified"* ]] || fail "verification line: $out"
# The file's hash is the one a checksum list holds for it.
"$dtb" verify --tables "$dir" --write-checksums "$dir/sums" --checksums-only >/dev/null 2>&1 || fail "dtb verify --write-checksums"
listed=$(awk '$2 == "KKvK.wdl" { print $1 }' "$dir/sums")
[ -n "$listed" ] || fail "KKvK.wdl not in the written list"
[[ "$out" == *"xxh3-64 $listed"* ]] || fail "no 'xxh3-64 $listed' line: $out"

expect_fail() {  # stderr-substring, file
  local err; err=$("$dtb" info "$2" 2>&1 >/dev/null); local rc=$?
  [ $rc -eq 1 ] || fail "dtb info $2 should exit 1, got $rc"
  [[ "$err" == *"$1"* ]] || fail "dtb info $2: stderr '$err' lacks '$1'"
}
expect_fail "table file missing" "$dir/KKKvK.wdl"

size=$(stat -c %s "$table")
head -c $((size - 1)) "$table" > "$dir/short.wdl"
expect_fail "truncated" "$dir/short.wdl"

cp "$table" "$dir/flipped.wdl"
last=$(od -An -tu1 -j $((size - 1)) -N1 "$table" | tr -d ' ')
printf "$(printf '\\%03o' $(( (last + 1) % 256 )))" | dd of="$dir/flipped.wdl" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
expect_fail "checksum mismatch" "$dir/flipped.wdl"
err=$("$dtb" info "$dir/flipped.wdl" 2>&1 >/dev/null)
[[ "$err" == *"flipped.wdl: block "* ]] || fail "the damaged block is not named: $err"

printf 'not a table' > "$dir/text.wdl"
expect_fail "wrong magic" "$dir/text.wdl"
echo "ok"
