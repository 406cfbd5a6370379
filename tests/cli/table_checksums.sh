#!/usr/bin/env bash
# `dtb verify --checksums` compares .mtc, .dtw and .rule files too: the 2-4
# piece MTC build and the 2-3 piece .dtw/.rule build match their lines of
# tables/CHECKSUMS, a changed .mtc or .dtw byte is named, and a list without
# .mtc lines (written before they were listed) still passes, saying how many
# files it could not compare.
set -euo pipefail
dtb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list=${DTB_SOURCE_DIR:?}/tables/CHECKSUMS
fail() { echo "$1"; exit 1; }

out=$("$dtb" verify "${DTB_TEST_MTC_TABLES:?}" --checksums "$list" --checksums-only)
[[ "$out" == "41 tables "*": 82 checksums match"*"no value re-derived"* ]] || fail "2-4 MTC build: $out"
[[ "$out" != *"not in the list"* ]] || fail "2-4 MTC build: some .mtc file is not listed: $out"

# The 2-3 piece tables with their .mtc tables.
mkdir "$work/t"
for f in "$DTB_TEST_MTC_TABLES"/*.wdl "$DTB_TEST_MTC_TABLES"/*.mtc; do
  name=$(basename "$f")
  material=${name%.*}
  [ "${#material}" -le 4 ] && cp "$f" "$work/t/"
done
n=$(ls "$work/t"/*.mtc | wc -l)
[ "$n" -eq 16 ] || fail "expected 16 tables of 2-3 pieces, copied $n"
"$dtb" verify "$work/t" --write-checksums "$work/listed" --checksums-only > /dev/null
[ "$(grep -c '\.mtc$' "$work/listed")" -eq 16 ] || fail "the written list does not name the 16 .mtc files: $(cat "$work/listed")"
out=$("$dtb" verify "$work/t" --checksums "$work/listed" --checksums-only)
[[ "$out" == "16 tables "*": 32 checksums match"* ]] || fail "own list: $out"

# One byte of an .mtc file changed: named, whatever the .wdl files say.
byte=$(od -An -tu1 -j100 -N1 "$work/t/KKvK.mtc" | tr -d ' ')
printf "\\$(printf '%03o' $((255 - byte)))" | dd of="$work/t/KKvK.mtc" bs=1 seek=100 conv=notrunc status=none
cmp -s "$work/t/KKvK.mtc" "$DTB_TEST_MTC_TABLES/KKvK.mtc" && fail "the byte was not changed"
if out=$("$dtb" verify "$work/t" --checksums "$work/listed" --checksums-only 2>&1); then fail "a changed .mtc passed: $out"; fi
[[ "$out" == *"KKvK.mtc: XXH3"*"differs"* ]] || fail "changed .mtc: $out"

# A list that names only the .wdl files: they are compared, the .mtc files counted.
grep -v '\.mtc$' "$work/listed" > "$work/wdl-only"
out=$("$dtb" verify "$work/t" --checksums "$work/wdl-only" --checksums-only)
[[ "$out" == *": 16 checksums match"*"; 16 .mtc/.r62/.dtw/.rule files not in the list, not compared"* ]] || fail "wdl-only list: $out"
# ... but a .wdl file it does not name fails.
grep -v '^[0-9a-f]*  KvK\.wdl$' "$work/wdl-only" > "$work/short"
if out=$("$dtb" verify "$work/t" --checksums "$work/short" --checksums-only 2>&1); then fail "an unlisted .wdl passed: $out"; fi
[[ "$out" == *"KvK.wdl is not listed"* ]] || fail "unlisted .wdl: $out"
# The 2-3 piece .dtw/.rule tables (the explorer's fixture, which links the
# 2-4 .wdl tables in) are all listed, and match.
out=$("$dtb" verify "${DTB_SERVE_TABLES:?}" --checksums "$list" --checksums-only)
[[ "$out" != *"not in the list"* ]] || fail "2-3 .dtw/.rule build: some file is not listed: $out"
mkdir "$work/d"
cp "$DTB_SERVE_TABLES"/*.wdl "$DTB_SERVE_TABLES"/*.dtw "$DTB_SERVE_TABLES"/*.rule "$work/d/"
dtw=$(ls "$work/d"/*.dtw "$work/d"/*.rule | wc -l)
[ "$dtw" -ge 16 ] || fail "expected the .dtw/.rule tables of 2-3 pieces, found $dtw"
out=$("$dtb" verify "$work/d" --checksums "$list" --checksums-only)
expected=$(( $(ls "$work/d"/*.wdl | wc -l) + dtw ))
[[ "$out" == *": $expected checksums match"* ]] || fail "2-3 .dtw/.rule build, $expected files: $out"
byte=$(od -An -tu1 -j100 -N1 "$work/d/KKvK.dtw" | tr -d ' ')
printf "\\$(printf '%03o' $((255 - byte)))" | dd of="$work/d/KKvK.dtw" bs=1 seek=100 conv=notrunc status=none
if out=$("$dtb" verify "$work/d" --checksums "$list" --checksums-only 2>&1); then fail "a changed .dtw passed: $out"; fi
[[ "$out" == *"KKvK.dtw: XXH3"*"differs"* ]] || fail "changed .dtw: $out"
echo "verify --checksums: .mtc/.dtw/.rule files compared where listed; the 2-4 MTC and 2-3 .dtw/.rule builds as in tables/CHECKSUMS"
