#!/usr/bin/env bash
# The explorer tests' table directory: .wdl/.dtw/.rule/.mtc for 2-3 pieces
# (`dtb gen --dtw --mtc`, seconds) and the 2-4 piece .wdl tables of the CTest
# fixture linked in. With --rules also the .dtw/.rule tables of the 6.3
# classes (`dtb rules --build`, about a minute on one core): what the rules
# report, its longest-win links and 6.3 rule values need.
# usage: make_tables.sh DTB WDL_2_4_DIR OUT_DIR [--rules]
set -euo pipefail
dtb=$1 wdl24=$2 out=$3 rules=${4:-}
rm -rf "$out"
"$dtb" gen --max-pieces 3 --dtw --mtc --out "$out" --threads 2 --quiet >/dev/null
[ "$rules" = --rules ] && "$dtb" rules --build "$out" >/dev/null 2>&1
for f in "$wdl24"/*.wdl; do
  [ -e "$out/$(basename "$f")" ] || ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$out/"
done
echo "explorer test tables in $out: $(ls "$out" | wc -l) files"
