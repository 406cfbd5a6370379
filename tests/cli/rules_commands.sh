#!/usr/bin/env bash
# dtb perft / moves: output, exit codes and messages on bad input.
set -uo pipefail
dtb=$1
fail() { echo "FAIL: $*"; exit 1; }
expect_out() {  # expected-stdout, command...
  local want=$1; shift
  local got; got=$("$@" 2>/dev/null) || fail "$* exited $?"
  [ "$got" = "$want" ] || fail "$*: got '$got', want '$want'"
}
expect_fail() {  # stderr-substring, command...
  local want=$1; shift
  local err; err=$("$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -ne 0 ] || fail "$* should fail"
  [[ "$err" == *"$want"* ]] || fail "$*: stderr '$err' lacks '$want'"
}
expect_out 27117 "$dtb" perft start 5
expect_out 41022614 "$dtb" perft start 9 --count-paths
expect_out 22369 "$dtb" perft "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38" 9
divide=$("$dtb" perft start 3 --divide) || fail "divide"
[ "$(echo "$divide" | wc -l)" -eq 10 ] || fail "divide should print 9 moves and a total"
[ "$(echo "$divide" | tail -1)" = 658 ] || fail "divide total"
echo "$divide" | grep -qx "31-26 80" || fail "divide line for 31-26: $divide"
expect_out $'46x30\n46x35' "$dtb" moves "W:WK46:B7,17,24,37"
expect_fail "bad FEN: a white man cannot stand on square 3" "$dtb" perft "W:W3:B20" 2
expect_fail "square 31 is used twice" "$dtb" moves "W:W31,31:B1"
expect_fail "depth must be" "$dtb" perft start -1
expect_fail "depth must be" "$dtb" perft start x
expect_fail "expected a FEN and a depth" "$dtb" perft start
expect_fail "unknown option" "$dtb" perft start 2 --bogus
expect_fail "unknown command" "$dtb" frobnicate
expect_fail "usage" "$dtb"
# Not `dtb help | grep -q`: with pipefail, grep quitting early can kill dtb by SIGPIPE.
grep -q "perft" <<< "$("$dtb" help)" || fail "help lists perft"
echo "rules commands: all checks passed"
