#!/usr/bin/env bash
# `dtb probe`: plain and JSON output, FENs from arguments and from stdin,
# a bad line answered with an error while the others are still answered, and
# the exit codes. Uses the 2-4 piece tables of the test fixture.
set -euo pipefail
dtb=$1
tables=${DTB_TEST_TABLES:?DTB_TEST_TABLES must name the 2-4 piece tables}
fail() { echo "FAIL: $*"; exit 1; }

# A forced capture that takes the last piece; a quiet win; its colour reversal.
out=$("$dtb" probe --tables "$tables" "W:W28,K46:B23")
# (A capture converts at once: MTC 1 and the best move need no .mtc table.)
[ "$out" = "W:W28,K46:B23 win 28x19 mtc 1 best 28x19" ] || fail "forced capture: $out"
out=$("$dtb" probe --tables "$tables" "W:WK46,28:B3")
line1=$(sed -n 1p <<<"$out")
[[ "$line1" == "W:W28,K46:B3 win "* ]] || fail "quiet win: $line1"
# The lone king on 46 facing a king on 5 along the long diagonal loses: every move is taken.
# These tables have no .mtc files: no MTC for the quiet position, but every move
# leads to a capture, so all resist equally long and the first is the best.
out=$("$dtb" probe --tables "$tables" "W:WK46:BK5")
[ "$out" = "W:WK46:BK5 loss 46-41 46-37 46-32 46-28 46-23 46-19 46-14 46-10 best 46-41" ] || fail "long diagonal: $out"

# JSON from stdin: one object per line, a bad FEN in the middle gives an
# error object, the exit status is 1 and the other lines are answered.
set +e
json=$(printf 'W:WK46:BK5\nnot a fen\n\nB:W40:B11\n' | "$dtb" probe --tables "$tables" --json)
status=$?
set -e
[ "$status" -eq 1 ] || fail "a bad line must give exit status 1, got $status"
python3 - "$json" <<'PY' || fail "JSON output"
import json, sys
lines = sys.argv[1].splitlines()
assert len(lines) == 3, lines
a, bad, c = (json.loads(l) for l in lines)
assert a["fen"] == "W:WK46:BK5" and a["wdl"] == "loss", a
assert len(a["moves"]) == 8 and all(m["wdl"] == "loss" for m in a["moves"]), a
assert bad["fen"] == "not a fen" and "error" in bad and "wdl" not in bad, bad
assert c["wdl"] in ("win", "draw", "loss") and {m["move"] for m in c["moves"]} == {"11-16", "11-17"}, c
# the best moves are exactly those whose value equals the position's value
assert set(c["best"]) == {m["move"] for m in c["moves"] if m["wdl"] == c["wdl"]}, c
PY

# Failures: too many pieces (per line), a table directory that does not exist,
# an unknown option.
set +e
out=$("$dtb" probe --tables "$tables" "W:WK1,K2,K3:BK49,K50"); status=$?
[ "$status" -eq 1 ] && [[ "$out" == *"too many pieces"* ]] || fail "too many pieces: $status $out"
"$dtb" probe --tables /nonexistent/tables "W:WK1:BK50" >/dev/null 2>&1; status=$?
[ "$status" -eq 1 ] || fail "missing directory: exit $status"
"$dtb" probe --tables "$tables" --frobnicate >/dev/null 2>&1; status=$?
[ "$status" -eq 2 ] || fail "unknown option: exit $status"
set -e
echo "dtb probe: all checks passed"
