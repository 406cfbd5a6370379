#!/usr/bin/env bash
# `dtb play` and the perfect-play keys of `dtb probe`, on the 2-4
# piece tables built with `dtb gen --mtc` (fixture). Every line `dtb play`
# prints is checked against `dtb probe`, not against stored answers: each move
# is legal and leads to the next FEN, is the position's best_move, the MTC
# falls by one along every king move that does not capture, and the result is
# the one the first position's value promises. Then the plain output, a
# directory without .mtc tables, and the errors.
set -euo pipefail
dtb=$1
tables=${DTB_TEST_MTC_TABLES:?DTB_TEST_MTC_TABLES must name the 2-4 piece tables with .mtc}
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Three kings against one (a king manoeuvre of MTC 8), Black winning with kings
# against a man, the lone king's side of a lost ending (the longest
# resistance, MTC 9), a draw, and a blocked side that has lost already.
for fen in "W:WK17,K28,K40:BK2" "B:W50:BK5,K1" "B:WK3,K44,K50:BK11" "W:WK1,K2:BK50" "W:W46:B37,41"; do
  "$dtb" play --tables "$tables" --json "$fen" >"$work/line.json" || fail "dtb play $fen exited $?"
  python3 - "$dtb" "$tables" "$work/line.json" <<'PY' || fail "line from $fen"
import json, subprocess, sys
dtb, tables, path = sys.argv[1:]
line = json.load(open(path))
objects, fens = line["moves"], line["fens"]
moves = [m["move"] for m in objects]
assert len(fens) == len(moves) + 1 and line["plies"] == len(moves), line
assert fens[0] == line["fen"], line

def probe(fen):
    out = subprocess.run([dtb, "probe", "--tables", tables, "--json", fen], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)

def kings(fen):  # squares of the kings of the side to move
    side, white, black = fen.split(":")
    pieces = (white if side == "W" else black)[1:]
    return {int(p[1:]) for p in pieces.split(",") if p.startswith("K")}

first = probe(fens[0])
assert first["wdl"] == line["wdl"] and first["mtc"] == line["mtc"], (first, line)
assert (first["mtc"] is None) == (first["wdl"] == "draw"), first
reports = [first] + [probe(f) for f in fens[1:]]
for i, move in enumerate(moves):
    here, after = reports[i], reports[i + 1]
    assert here["best_move"] == move, (fens[i], here["best_move"], move)
    assert move in here["best"], (fens[i], move, here["best"])
    step = [m for m in here["moves"] if m["move"] == move]
    assert len(step) == 1 and step[0]["fen"] == fens[i + 1], (fens[i], move, fens[i + 1])
    assert objects[i] == step[0], (fens[i], objects[i], step[0])  # the same object as dtb probe --json
    king_move = "x" not in move and int(move.split("-")[0]) in kings(fens[i])
    if king_move and here["mtc"] is not None:
        assert after["mtc"] == here["mtc"] - 1, (fens[i], move, here["mtc"], after["mtc"])
last = reports[-1]
side_to_move = {"W": "White", "B": "Black"}
if line["wdl"] == "draw":
    assert line["result"] == "draw (repetition)" and line["winner"] is None, line
    assert fens.count(fens[-1]) == 3, fens
else:
    # The game ended: the side to move has no legal move and has lost.
    assert last["moves"] == [] and last["best_move"] is None and last["mtc"] == 0, last
    loser = side_to_move[fens[-1][0]]
    winner = "Black" if loser == "White" else "White"
    assert line["result"] == winner + " wins" and line["winner"] == winner.lower(), line
    starter = side_to_move[fens[0][0]]
    assert (winner == starter) == (line["wdl"] == "win"), line
print(fens[0], line["result"], len(moves), "plies")
PY
done

# Plain output: numbered moves ("1... " when Black starts) and the result.
out=$("$dtb" play --tables "$tables" "B:W50:BK5,K1")
[[ "$(sed -n 1p <<<"$out")" == "1... "* ]] || fail "Black starts: $out"
[ "$(tail -1 <<<"$out")" = "Black wins" ] || fail "Black wins: $out"
out=$("$dtb" play --tables "$tables" "W:WK1,K2,K3:BK45")
[[ "$(sed -n 1p <<<"$out")" =~ ^1\.\ [0-9]+-[0-9]+\ [0-9]+[-x][0-9]+\ 2\.\  ]] || fail "White starts: $out"
[ "$(tail -1 <<<"$out")" = "White wins" ] || fail "White wins: $out"
out=$("$dtb" play --tables "$tables" "W:W46:B37,41")
[ "$out" = "Black wins" ] || fail "no legal move: $out"
[ "$("$dtb" play --tables "$tables" "W:WK1,K2:BK50" | tail -1)" = "draw (repetition)" ] || fail "draw"

# dtb probe: plain output appends mtc and best; a forced capture has MTC 1.
out=$("$dtb" probe --tables "$tables" "W:W28,K46:B23")
[ "$out" = "W:W28,K46:B23 win 28x19 mtc 1 best 28x19" ] || fail "probe plain: $out"
out=$("$dtb" probe --tables "$tables" "W:WK1,K2:BK50")
[[ "$out" == *" best "* && "$out" != *" mtc "* ]] || fail "probe plain, draw: $out"

# A directory without .mtc tables: probe still answers, with null mtc and
# best_move where they need a table; play fails naming `dtb gen --mtc`.
mkdir "$work/wdl-only"
for f in "$tables"/*.wdl; do ln -s "$(readlink -f "$f")" "$work/wdl-only/"; done
"$dtb" probe --tables "$work/wdl-only" --json "W:WK1,K2,K3:BK45" "W:W28,K46:B23" >"$work/probe.json" ||
  fail "probe without .mtc tables exited $?"
python3 - "$work/probe.json" <<'PY' || fail "probe --json without .mtc tables"
import json, sys
quiet, capture = (json.loads(l) for l in open(sys.argv[1]))
assert quiet["wdl"] == "win" and quiet["mtc"] is None and quiet["best_move"] is None, quiet
assert "error" not in quiet and quiet["moves"], quiet
assert capture["mtc"] == 1 and capture["best_move"] == "28x19", capture  # no table needed
PY
set +e
err=$("$dtb" play --tables "$work/wdl-only" "W:WK1,K2,K3:BK45" 2>&1 >/dev/null); status=$?
[ "$status" -eq 1 ] && [[ "$err" == *"KKKvK.mtc"* && "$err" == *"dtb gen --mtc"* ]] ||
  fail "play without .mtc tables: $status $err"

# Errors: a bad FEN, too many pieces, a missing directory (exit 1), usage (exit 2).
err=$("$dtb" play --tables "$tables" "W:W3:B20" 2>&1 >/dev/null); status=$?
[ "$status" -eq 1 ] && [[ "$err" == *"bad FEN"* ]] || fail "bad FEN: $status $err"
err=$("$dtb" play --tables "$tables" "W:WK1,K2,K3:BK49,K50" 2>&1 >/dev/null); status=$?
[ "$status" -eq 1 ] && [[ "$err" == *"too many pieces"* ]] || fail "too many pieces: $status $err"
"$dtb" play --tables /nonexistent/tables "W:WK1:BK50" >/dev/null 2>&1; status=$?
[ "$status" -eq 1 ] || fail "missing directory: exit $status"
"$dtb" play --tables "$tables" >/dev/null 2>&1; status=$?
[ "$status" -eq 2 ] || fail "no FEN: exit $status"
"$dtb" play --tables "$tables" --frobnicate "W:WK1:BK50" >/dev/null 2>&1; status=$?
[ "$status" -eq 2 ] || fail "unknown option: exit $status"
set -e
# Article 6.2 (`--plies-since-conversion C`): KKvM converts in 2 plies at best,
# so with 49 plies counted only a conversion at once would still win: a draw;
# with 48 the win stands. KKvK is a 6.4 class material: its 10-ply class
# count, never shorter than the 6.2 count, has run out at 45: a draw.
out=$("$dtb" probe --tables "$tables" --plies-since-conversion 49 "W:WK2,K3:B1")
[[ "$out" == "W:WK2,K3:B1 win rules draw "* ]] || fail "6.2 at 49: $out"
out=$("$dtb" probe --tables "$tables" --plies-since-conversion 48 "W:WK2,K3:B1")
[[ "$out" == "W:WK2,K3:B1 win rules win "* ]] || fail "6.2 at 48: $out"
out=$("$dtb" probe --tables "$tables" --plies-since-conversion 45 "W:WK1,K2:BK45")
[[ "$out" == "W:WK1,K2:BK45 win rules draw "* ]] || fail "6.4 class at 45: $out"
if "$dtb" probe --tables "$tables" --plies-since-conversion 50 "W:WK2,K3:B1" >/dev/null 2>&1; then
  fail "a 6.2 count of 50 must be refused"
fi

# dtb rules --article 6.2: counts that add up, and each table's longest win
# read back through dtb probe (the probe library's own reader) at that MTC.
"$dtb" rules --article 6.2 --json "$tables" > "$work/report62.json" || fail "rules --article 6.2"
/usr/bin/python3 - "$dtb" "$tables" "$work/report62.json" <<'PY' || fail "6.2 report"
import json, subprocess, sys
dtb, tables, path = sys.argv[1:]
report = json.load(open(path))
assert len(report) == 41, len(report)
for t in report:
    assert t["win"] + t["draw"] + t["loss"] == t["positions"], t["material"]
    assert sum(t["win_mtc_histogram"]) == t["win"], t["material"]
    assert t["wins_drawn_at"][49] == t["win"] - sum(t["win_mtc_histogram"][:2]), t["material"]
    assert t["exact"], t["material"]  # no conversion in 2-4 takes over 50 plies
    if t["longest_win_mtc_fen"]:
        out = subprocess.run([dtb, "probe", "--tables", tables, "--json", t["longest_win_mtc_fen"]],
                             capture_output=True, text=True, check=True).stdout
        probed = json.loads(out)
        assert probed["wdl"] == "win" and probed["mtc"] == t["longest_win_mtc"], (t["material"], probed)
        assert len(t["longest_win_mtc_line"].split()) <= t["longest_win_mtc"], t["material"]
PY
# dtb play --plies-since-conversion C: the line under article 6.2. KKvM
# converts in 2 plies: won with 48 counted, drawn by the count with 49 (one
# king move and the count reaches 50); in a directory without .rule tables a
# line that converts into a class stops there, and a class FEN is refused
# (naming the missing table). Then random non-class positions
# at several counts: the line reaches the dtb_probe_rules value (dtb play
# exits 1 otherwise), a count draw comes only after 50 plies of king moves,
# and no count reaches 50 in a line that ends in a win.
[ "$("$dtb" play --tables "$tables" --plies-since-conversion 48 "W:WK2,K3:B1" | tail -1)" = "White wins" ] ||
  fail "6.2 play at 48"
out=$("$dtb" play --tables "$tables" --plies-since-conversion 49 "W:WK2,K3:B1")
[ "$out" = $'1. 2-7\ndraw (article 6.2: 50 plies without a capture or man move)' ] || fail "6.2 play at 49: $out"
out=$("$dtb" play --tables "$tables" --plies-since-conversion 40 "W:WK1,K2:BK45,40" | tail -1)
[[ "$out" == "enters a 6.3/6.4 class: "* ]] || fail "6.2 play into a class: $out"
err=$("$dtb" play --tables "$tables" --plies-since-conversion 0 "W:WK1,K2:BK45" 2>&1 >/dev/null) && fail "class start"
[[ "$err" == *"KKvK.rule"* ]] || fail "class start without .rule tables: $err"
err=$("$dtb" play --tables "$tables" --plies-in-class 3 "W:WK1,K2:BK45" 2>&1 >/dev/null) && fail "class count alone"
[[ "$err" == *"goes with --plies-since-conversion"* ]] || fail "class count alone: $err"
err=$("$dtb" play --tables "$tables" --plies-since-conversion 3 --plies-in-class 3 "W:WK1,K2:BK45,40" 2>&1 >/dev/null) &&
  fail "class count outside a class"
[[ "$err" == *"in no 6.3/6.4 class"* ]] || fail "class count outside a class: $err"
/usr/bin/python3 - "$dtb" "$tables" <<'PY' || fail "6.2 play lines"
import json, random, subprocess, sys
dtb, tables = sys.argv[1:]
rng = random.Random(62)
def fen_of(material):  # a random legal-looking position of a material (White to move)
    while True:
        squares = rng.sample(range(1, 51), len(material) - 1)
        white, black = material.split("v")
        w = [("K" if p == "K" else "") + str(s) for p, s in zip(white, squares)]
        b = [("K" if p == "K" else "") + str(s) for p, s in zip(black, squares[len(white):])]
        if all(not (p == "M" and s <= 5) for p, s in zip(white, squares)) and \
           all(not (p == "M" and s >= 46) for p, s in zip(black, squares[len(white):])):
            return "%s:W%s:B%s" % (rng.choice("WB"), ",".join(w), ",".join(b))
def converts(fen, move):
    side, white, black = fen.split(":")
    kings = {int(p[1:]) for p in (white if side == "W" else black)[1:].split(",") if p.startswith("K")}
    return "x" in move or int(move.split("-")[0]) not in kings
played = wins = count_draws = 0
for material in ("KKvM", "KMvKM", "KKvKM", "MMvKK", "KKvMM", "KMvMM", "KKvKK"):
    for _ in range(8):
        fen = fen_of(material)
        for count in (0, 30, 46):
            r = subprocess.run([dtb, "play", "--tables", tables, "--json", "--plies-since-conversion", str(count), fen],
                               capture_output=True, text=True)
            if "bad FEN" in r.stderr or "invalid position" in r.stderr:
                break
            assert r.returncode == 0, (fen, count, r.stderr)
            line = json.loads(r.stdout)
            played += 1
            c = count
            for f, m in zip(line["fens"], line["moves"]):
                c = 0 if converts(f, m["move"]) else c + 1
                assert c <= 50, (fen, count, line["moves"])
                assert m["plies_since_conversion"] in (c, None), (fen, count, m)  # None: the game ended
            if line["result"].startswith("draw (article 6.2"):
                assert c == 50, (fen, count, line)
                count_draws += 1
            wins += line["winner"] is not None
assert played > 100 and wins > 20 and count_draws > 0, (played, wins, count_draws)
PY

# dtb rules --article 6.2 --drawn: for each non-class material and count,
# as many drawn wins as the report counts, and every position listed is, by
# dtb probe, a win or loss in theory that the rule draws at that count.
/usr/bin/python3 - "$dtb" "$tables" "$work/report62.json" <<'PY' || fail "6.2 --drawn"
import json, subprocess, sys
dtb, tables, path = sys.argv[1:]
report = {t["material"]: t for t in json.load(open(path))}
listed = 0
for material in ("KKvM", "MvKK", "KKvKM", "KMvKM", "KMvKK", "MMvKM"):
    for count in (30, 47, 49):
        out = subprocess.run([dtb, "rules", "--article", "6.2", "--drawn", material, "--count", str(count),
                              "--limit", "1000000", "--json", tables], capture_output=True, text=True, check=True)
        scan = json.loads(out.stdout)
        assert scan["from"] == "mtc" and scan["plies_since_conversion"] == count, scan
        assert scan["wins"] == report[material]["wins_drawn_at"][count], (material, count, scan["wins"])
        assert scan["wins"] + scan["losses"] == len(scan["positions"]), (material, count)
        sample = scan["positions"][::max(1, len(scan["positions"]) // 25)]
        fens = "\n".join(p["fen"] for p in sample) + "\n"
        probed = subprocess.run([dtb, "probe", "--tables", tables, "--json", "--plies-since-conversion", str(count)],
                                input=fens, capture_output=True, text=True, check=True).stdout.splitlines()
        for p, line in zip(sample, probed):
            answer = json.loads(line)
            assert (answer["wdl"], answer["rules_wdl"]) == (p["wdl"], "draw"), (material, count, answer)
            assert p["plies"] > 50 - count and answer["mtc"] == p["plies"], (material, count, p, answer)
            listed += 1
assert listed > 100, listed
PY
# ... and its errors.
out=$("$dtb" rules --article 6.2 --drawn KKvM "$tables" 2>&1) || fail "--drawn KKvM at count 0"
[[ "$out" == "KKvM, White to move, 0 plies counted (from its .mtc table): article 6.2 draws 0 wins and 0 losses" ]] \
  || fail "--drawn at count 0: $out"
for bad in "--drawn KKvX" "--drawn KKvM --count 50" "--count 3" "--drawn KKKKKvK"; do
  # shellcheck disable=SC2086
  if "$dtb" rules --article 6.2 $bad "$tables" >/dev/null 2>&1; then fail "dtb rules --article 6.2 $bad must fail"; fi
done
if "$dtb" rules --drawn KKvM "$tables" >/dev/null 2>&1; then fail "--drawn needs --article 6.2"; fi

# Inside the 6.3/6.4 classes (a directory with their .rule tables): the class
# count decides, dtb_best_move_rule plays. W:W6,K7:BK50 (KMvK) with 3 plies of
# the 10 played is won, but not by the least-MTC move (tests/probe/
# test_class_play.cpp); with 9 played it is drawn at the limit. Then random
# class positions at random class counts, both sides to move: every line
# reaches dtb_probe_rules' value (dtb play exits 1 otherwise), the class count
# kept here from the material (+1 in the same class, 0 on entering another)
# never passes the limit, and a count draw comes exactly at it.
rules_dir=$work/with-rules
mkdir "$rules_dir"
ln -s "$tables"/* "$rules_dir"/
ln -s "${DTB_TEST_RULE_TABLES:?DTB_TEST_RULE_TABLES must name the 6.3/6.4 .rule tables}"/*.rule "$rules_dir"/
out=$("$dtb" play --tables "$rules_dir" --plies-since-conversion 3 "W:W6,K7:BK50")
[ "$out" = $'1. 7-12 50-45 2. 6-1 45x7 3. 1x12\nWhite wins' ] || fail "class play at 3: $out"
out=$("$dtb" play --tables "$rules_dir" --plies-since-conversion 0 --plies-in-class 9 "W:W6,K7:BK50" | tail -1)
[ "$out" = "draw (article 6.4: 5 moves each in the class)" ] || fail "class play at 9: $out"
/usr/bin/python3 - "$dtb" "$rules_dir" <<'PY' || fail "class play lines"
import json, random, subprocess, sys
dtb, tables = sys.argv[1:]
rng = random.Random(63)
def pieces(part):
    return [(p.startswith("K"), int(p.lstrip("K"))) for p in part[1:].split(",") if p]
def rule_class(fen):  # RULES.md 6.3/6.4: a strong side with a king, against a lone king
    _, white, black = fen.split(":")
    for strong, lone in ((pieces(white), pieces(black)), (pieces(black), pieces(white))):
        if len(lone) == 1 and lone[0][0] and any(k for k, _ in strong):
            if len(strong) == 3: return 32
            if len(strong) <= 2: return 10
    return 0
lines = wins = class_draws = 0
for material in ("KKKvK", "KKMvK", "KMMvK", "KKvK", "KMvK"):
    for _ in range(12):
        squares = rng.sample(range(6, 46), len(material) - 1)
        white, black = material.split("v")
        w = [("K" if p == "K" else "") + str(s) for p, s in zip(white, squares)]
        b = ["K" + str(squares[-1])]
        fen = rng.choice("WB") + ":W" + ",".join(w) + ":B" + ",".join(b)
        limit = rule_class(fen)
        assert limit, fen
        count = rng.randrange(0, limit)
        r = subprocess.run([dtb, "play", "--tables", tables, "--json", "--plies-since-conversion", "0",
                            "--plies-in-class", str(count), fen], capture_output=True, text=True)
        assert r.returncode == 0, (fen, count, r.stderr)
        line = json.loads(r.stdout)
        lines += 1
        c, lim = count, limit
        for before, after in zip(line["fens"], line["fens"][1:]):
            now = rule_class(after)
            c = c + 1 if now == lim else 0
            lim = now
            if now:
                assert c <= lim, (fen, count, line["moves"])
        if line["result"].startswith("draw (article 6."):
            assert c == lim, (fen, count, c, lim, line)
            class_draws += 1
        wins += line["winner"] is not None
assert lines == 60 and wins > 10 and class_draws > 0, (lines, wins, class_draws)
PY
echo "dtb play and probe mtc/best_move: all checks passed"
