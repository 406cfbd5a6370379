#!/usr/bin/env bash
# `dtb verify` re-derives a 6-piece unit's values, MTC and article 6.2 values
# and catches one changed MTC and one changed `.r62` value in it: the damage a
# checksum cannot see, since the file is rewritten whole (change_one_value).
#
# The unit is five kings against one (KKKKKvK with KvKKKKK, 190 M positions),
# the smallest of six pieces; its closure is kings-only, up to four kings
# against one. No real table of 2-6 pieces that small needs `.r62` tables
# (article 6.2 only bites at 6 pieces with men), so KKKKvK's `.mtc` is
# stretched 44 plies (stretch_mtc): a black capture of a white king then leads
# into positions that 6.2 draws, and the unit needs its `.r62` tables. The
# stretched table is no true table, so the verify journal vouches for the
# closure (their checksum lines, as a run that checked them would have
# written) and the unit alone is re-derived.
set -euo pipefail
dtb=$1
build=${DTB_BUILD_DIR:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "verify_six_pieces: $*" >&2; exit 1; }
t=$work/t

"$dtb" gen --max-pieces 6 --only KKKKKvK --mtc --threads 2 --quiet --out "$t" > "$work/gen.log" 2>&1 ||
  fail "the build failed: $(tail -3 "$work/gen.log")"
# Before anything is changed: the unit's and its closure's bytes are the committed ones.
grep -E '^[0-9a-f]+  (K+vK+)\.(wdl|mtc)$' "${DTB_SOURCE_DIR:?}/tables/CHECKSUMS" > "$work/kings.sums" || true
out=$("$dtb" verify "$t" --checksums "$work/kings.sums" --checksums-only 2>&1) || fail "checksums: $out"
[[ "$out" == *"18 checksums match"* ]] || fail "not every file is in tables/CHECKSUMS: $out"

"$build/tests/stretch_mtc" "$t/KKKKvK.mtc" KKKKvK 44 || fail "stretch_mtc failed"
"$dtb" gen --max-pieces 6 --only KKKKKvK --article62 --threads 2 --quiet --out "$t" > "$work/r62.log" 2>&1 ||
  fail "the .r62 build failed: $(tail -3 "$work/r62.log")"
[ -s "$t/KKKKKvK.r62" ] && [ -s "$t/KvKKKKK.r62" ] || fail "no .r62 tables for the unit: $(cat "$work/r62.log")"

# The closure's checksum lines: the journal every run starts from.
"$dtb" verify "$t" --write-checksums "$work/all.sums" --checksums-only > /dev/null 2>&1 ||
  fail "writing the checksums failed"
grep -v -E ' (KKKKKvK|KvKKKKK)\.' "$work/all.sums" > "$work/closure.sums"
# caught FILE FROM: change one value of the unit's table FILE, the first
# eligible from index FROM (change_one_value), then dtb verify of the unit
# (a fresh copy of the journal) must fail at exactly that position.
caught() {
  local file=$1 from=$2 index fen
  read -r index fen < <("$build/tests/change_one_value" "$t/$file" "${file%.*}" "$from") ||
    fail "changing a value of $file failed"
  cp "$work/closure.sums" "$work/$file.journal"
  if "$dtb" verify "$t" --journal "$work/$file.journal" --threads 2 --quiet > "$work/$file.out" 2>&1; then
    fail "a changed value of $file (position $index, $fen) passed"
  fi
  grep -q -F "$file: position $index " "$work/$file.out" ||
    fail "the changed value of $file (position $index) was not what failed: $(tail -3 "$work/$file.out")"
}
# The unit's tables are checked in the order KvKKKKK, KKKKKvK, the values
# and MTC first, then the .r62 values. A change in KvKKKKK.mtc (in the middle
# of the table) is found at its own position: KvKKKKK's moves lead into
# KKKKKvK, checked after it.
cp "$t/KvKKKKK.mtc" "$work/KvKKKKK.mtc.good"
caught KvKKKKK.mtc 50000000
cp "$work/KvKKKKK.mtc.good" "$t/KvKKKKK.mtc"

# A change in KKKKKvK.r62: this run re-derives every value and MTC of the
# unit and every .r62 value of KvKKKKK, all as built (they must pass), then
# fails at the change, its check stopping there. (A position of KvKKKKK whose
# move leads to the change could have failed first; none does here, and the
# tables are the same bytes on every machine.)
caught KKKKKvK.r62 1000000
echo "verify: KKKKKvK re-derived with .mtc and .r62; a changed MTC and a changed .r62 value caught"
