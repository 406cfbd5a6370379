#!/usr/bin/env bash
# dtb rules: exit codes and messages on bad input (building the tables takes
# a minute and is covered by test_drawrules and scripts/check-drawrules).
set -uo pipefail
dtb=$1
fail() { echo "FAIL: $*"; exit 1; }
expect_fail() {  # stderr-substring, command...
  local want=$1; shift
  local err; err=$("$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -ne 0 ] || fail "$* should fail"
  [[ "$err" == *"$want"* ]] || fail "$*: stderr '$err' lacks '$want'"
}
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
expect_fail "KvK.rule" "$dtb" rules "$empty"
expect_fail "dtb rules --build" "$dtb" rules --json "$empty"
expect_fail "unknown option" "$dtb" rules --bogus
expect_fail "at most one table directory" "$dtb" rules a b
expect_fail "only makes sense with --build" "$dtb" rules --dtw-up-to 4 "$empty"
expect_fail "piece count from 4 to 7" "$dtb" rules --build --dtw-up-to 9 "$empty"
# A damaged rule table is reported, not trusted.
printf 'not a table' > "$empty/KvK.rule"
expect_fail "KvK.rule" "$dtb" rules "$empty"
# 2-3 pieces with --dtw: dtw and 6.4 rule values through probe, stats and verify.
"$dtb" gen --max-pieces 3 --out "$empty/t3" --dtw --quiet >/dev/null || fail "gen --dtw"
out=$("$dtb" probe --tables "$empty/t3" --json "W:WK2,6:BK50") || fail "probe --json"
[[ "$out" == *'"dtw":9,"rule_wdl":"win"'* ]] || fail "probe dtw/rule_wdl: $out"
out=$("$dtb" probe --tables "$empty/t3" --plies-in-class 2 "W:WK2,6:BK50") || fail "probe --plies-in-class"
[[ "$out" == *"win rule draw"* ]] || fail "9-ply win after 2 of 10 plies must be a rule draw: $out"
out=$("$dtb" probe --tables "$empty/t3" --plies-in-class 1 "W:WK2,6:BK50") || fail "probe --plies-in-class 1"
[[ "$out" == *"win rule win"* ]] || fail "9-ply win after 1 of 10 plies still wins: $out"
out=$("$dtb" probe --tables "$empty/t3" --plies-in-class 11 "W:WK2,6:BK50") && fail "11 plies exceed 6.4's 10"
[[ "$out" == *"outside 0..10"* ]] || fail "plies beyond the limit: $out"
out=$("$dtb" stats --json --quiet "$empty/t3") || fail "stats"
[[ "$out" == *'"material": "KMvK"'*'"longest_win_dtw": 9}'* ]] || fail "stats longest_win_dtw: $out"
grep -q ".dtw/.rule tables" <<< "$("$dtb" verify "$empty/t3" --quiet)" || fail "verify must check .dtw/.rule"
expect_fail "KKKvK.rule" "$dtb" rules "$empty/t3"
echo ok
