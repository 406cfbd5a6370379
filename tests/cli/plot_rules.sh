#!/usr/bin/env bash
# scripts/plot-rules draws the article 6.2 figure from `dtb rules --article 6.2
# --json` (2-4 piece tables with MTC), and refuses input that is not a report.
set -euo pipefail
dtb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
plot="${DTB_SOURCE_DIR:?}/scripts/plot-rules"
"$dtb" rules --article 6.2 --json "${DTB_TEST_MTC_TABLES:?}" > "$work/r62.json"
out=$("$plot" "$work/r62.json" --out "$work/docs")
[ "$out" = "$work/docs/rules-6.2.svg" ] || { echo "plot-rules printed '$out'"; exit 1; }
# The legend names the table with the longest conversion of the report.
longest=$(/usr/bin/python3 -c 'import json,sys; e=max(json.load(open(sys.argv[1])), key=lambda e: e["longest_win_mtc"] or -1); print(e["material"], e["longest_win_mtc"])' "$work/r62.json")
set -- $longest
grep -q "$1 (longest $2)" "$work/docs/rules-6.2.svg" || { echo "the figure does not show $1 (longest $2)"; exit 1; }
if echo '{"not": "a report"}' | "$plot" --out "$work/bad" 2> "$work/err"; then
  echo "plot-rules accepted a non-report"; exit 1
fi
grep -q "not the output of" "$work/err" || { echo "no clear message:"; cat "$work/err"; exit 1; }
echo "plot-rules: the 6.2 figure shows $1 (longest win conversion $2 plies); bad input refused"
