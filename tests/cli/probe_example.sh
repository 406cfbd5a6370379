#!/usr/bin/env bash
# `cmake --install` gives a usable package: install the build into a temporary
# prefix, build the example engine (probe/examples) against it with
# find_package(dtb), and let it play every material of 2-4 pieces from random
# won positions against a random and a best defence: every game must be won
# before the FMJD draw rules (6.2, 6.3, 6.4) could draw it. Then single
# positions with their moves, and controls that must fail: a winner that only
# keeps the theoretical value (the rule check must catch it), a draw, missing
# rule tables, bad options.
set -euo pipefail
source_dir=${DTB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build_dir=${DTB_BUILD_DIR:-$(dirname "$1")/..}
mtc_tables=${DTB_TEST_MTC_TABLES:?DTB_TEST_MTC_TABLES must name the 2-4 piece tables with .mtc}
rule_tables=${DTB_TEST_RULE_TABLES:?DTB_TEST_RULE_TABLES must name the 6.3/6.4 .rule tables}
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
for f in include/dtb/dtb.h include/dtb/dtb.hpp; do
  [ -f "$work/prefix/$f" ] || fail "$f not installed"
done
ls "$work"/prefix/lib*/cmake/dtb/dtbConfig.cmake >/dev/null
cmake -S "$source_dir/probe/examples" -B "$work/example" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" >/dev/null
engine=$work/example/play_ending

# One directory as an engine would have it: .wdl and .mtc, and the .rule
# tables of the class materials.
tables=$work/tables
mkdir "$tables"
ln -s "$mtc_tables"/* "$tables"/
ln -s "$rule_tables"/*.rule "$tables"/

# Every material of 2-4 pieces, 10 positions each, both defences.
"$engine" --tables "$tables" --materials all --games 10 --seed 13 >"$work/all.txt" 2>"$work/all.err" ||
  { cat "$work/all.txt" "$work/all.err"; fail "the engine did not win every game (exit $?)"; }
[ ! -s "$work/all.err" ] || { cat "$work/all.err"; fail "messages on stderr"; }
awk 'NR == 1 || /^[0-9]+ materials/ { next }
     { rows++; if ($2 != 10 || $3 != 10 || $4 != 10) bad = bad " " $1; if ($6 > longest) longest = $6 }
     END { if (rows != 41 || bad != "" || longest < 10) { print "rows " rows ", not all won:" bad ", longest " longest; exit 1 } }' \
  "$work/all.txt" || { cat "$work/all.txt"; fail "summary"; }
grep -q "^41 materials, 410 positions, 820 games: every game won within the draw rules$" "$work/all.txt" ||
  fail "summary line: $(tail -1 "$work/all.txt")"
# The seed replays the run; one material alone plays the games it got in the run.
"$engine" --tables "$tables" --materials all --games 10 --seed 13 | cmp -s - "$work/all.txt" || fail "not reproducible"
"$engine" --tables "$tables" --materials KKMvK --games 10 --seed 13 | grep "^KKMvK " |
  cmp -s - <(grep "^KKMvK " "$work/all.txt") || fail "KKMvK alone plays other games"

# The rule-aware engine (--winner rules: dtb_best_move_rules outside the
# classes, dtb_best_move_rule inside, the best defence alike) wins them all too.
"$engine" --tables "$tables" --materials all --games 10 --seed 14 --winner rules >"$work/rules.txt" 2>"$work/rules.err" ||
  { cat "$work/rules.txt" "$work/rules.err"; fail "the rule-aware engine did not win every game"; }
grep -q "^41 materials, 410 positions, 820 games: every game won within the draw rules$" "$work/rules.txt" ||
  fail "rules summary line: $(tail -1 "$work/rules.txt")"

# Single positions: a king and a man against a man; three kings against a
# king; Black to move winning with kings against a man; the longest KKMvK win
# under 6.3 (28 plies, docs/draw-rules.md). Each printed ply is counted.
for fen in "W:WK46,28:B3" "W:WK1,K2,K3:BK45" "B:W50:BK5,K1" "W:WK12,K40,50:BK11"; do
  for defence in best rules random; do
    winner=best
    [ "$defence" = rules ] && winner=rules
    out=$("$engine" --tables "$tables" --fen "$fen" --defence "$defence" --winner "$winner") || { echo "$out"; fail "$fen not won"; }
    plies=$(sed -n 's/^result: .* wins after \([0-9]*\) plies, within the draw rules$/\1/p' <<<"$out")
    [ -n "$plies" ] || { echo "$out"; fail "$fen: no result line"; }
    [ "$(grep -c '^ *[0-9]*  \(white\|black\) ' <<<"$out")" = "$plies" ] || { echo "$out"; fail "$fen: plies"; }
  done
done

# Controls. A winner that picks any move keeping the theoretical win drifts:
# the draw rules must stop it (and the run must say so and fail).
if "$engine" --tables "$tables" --materials all --games 50 --seed 1 --winner wdl >"$work/wdl.txt" 2>"$work/wdl.err"; then
  fail "a winner without the .mtc tables' guidance won every game"
fi
grep -q "^NOT WON: .*under the draw rules" "$work/wdl.err" || { cat "$work/wdl.err"; fail "no rule failure named"; }
grep -q "SOME NOT WON" "$work/wdl.txt" || fail "the summary hides the failures"
if out=$("$engine" --tables "$tables" --fen "W:WK1,K2:BK50" 2>&1); then fail "a draw played as a win"; fi
# Without the .rule tables a class position cannot be checked: an error, not a pass.
if out=$("$engine" --tables "$mtc_tables" --materials KKvK --games 2 2>&1); then fail "passed without .rule tables"; fi
grep -q "KKvK.rule" <<<"$out" || { echo "$out"; fail "the missing table is not named"; }
set +e
"$engine" --tables "$tables" --games 0 2>/dev/null; [ $? = 2 ] || fail "--games 0 accepted"
"$engine" --tables "$tables" --materials KXvK 2>/dev/null; [ $? = 1 ] || fail "bad material accepted"
"$engine" --tables "$tables" --materials 5 2>/dev/null; [ $? = 1 ] || fail "5 pieces from a 2-4 set"
set -e
echo "example engine built against the installed package: every 2-4 piece material won within the draw rules"
