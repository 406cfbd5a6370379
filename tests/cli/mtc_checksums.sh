#!/usr/bin/env bash
# `dtb verify --checksums` compares .mtc files too: the 2-4 piece MTC build
# matches the .mtc lines of tables/CHECKSUMS, a changed .mtc byte is named,
# and a list without .mtc lines (written before they were listed) still
# passes, saying how many files it could not compare.
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
[[ "$out" == *": 16 checksums match"*"; 16 .mtc/.r62 files not in the list, not compared"* ]] || fail "wdl-only list: $out"
# ... but a .wdl file it does not name fails.
grep -v '^[0-9a-f]*  KvK\.wdl$' "$work/wdl-only" > "$work/short"
if out=$("$dtb" verify "$work/t" --checksums "$work/short" --checksums-only 2>&1); then fail "an unlisted .wdl passed: $out"; fi
[[ "$out" == *"KvK.wdl is not listed"* ]] || fail "unlisted .wdl: $out"
echo "verify --checksums: .mtc files compared where listed; the 2-4 MTC build as in tables/CHECKSUMS"
