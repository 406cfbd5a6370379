#!/usr/bin/env bash
# The progress line of `dtb gen --mtc` in a log (no terminal), every step
# printed (DTB_PROGRESS_LOG_MS=0): it names each phase (first pass, the
# propagation rounds, writing), its percentage never goes back, a unit's
# first pass and its writing each move it, and it shows 100 % only once the
# last unit's files are being written, never before. Then `dtb verify` of
# those tables: loading a table moves its line too (minutes at 7 pieces).
# Last, scripts/eta-check reads a log of such lines as it should.
set -euo pipefail
dtb=$1
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

DTB_PROGRESS_LOG_MS=0 "$dtb" gen --max-pieces 3 --mtc --threads 2 --out "$work/t" 2>"$work/log" >/dev/null \
  || fail "dtb gen failed: $(tail -3 "$work/log")"
grep -E '^gen +[0-9.]+%  ' "$work/log" > "$work/lines" || fail "no progress line in: $(head -3 "$work/log")"
for phase in ': first pass' ': round 1' ' writing'; do
  grep -q -- "$phase" "$work/lines" || fail "no '$phase' phase on the progress line"
done

DTB_PROGRESS_LOG_MS=0 "$dtb" verify --tables "$work/t" 2>"$work/vlog" >/dev/null \
  || fail "dtb verify failed: $(tail -3 "$work/vlog")"
python3 - "$work/lines" "$work/vlog" <<'PY'
import re, sys

def progress_rows(path, tool):
    """(percentage, item) of each progress line of `tool`; the percentage never goes back."""
    rows = []
    for line in open(path):
        m = re.match(tool + r' +([0-9.]+)%  (.*?)  (ETA \S+|--|done in \S+)  elapsed (\S+)$', line.rstrip('\n'))
        if m:
            rows.append((float(m.group(1)), m.group(2)))
    assert rows, f"no parsable {tool} progress line"
    percent = [p for p, _ in rows]
    assert all(a <= b for a, b in zip(percent, percent[1:])), f"the {tool} percentage went back"
    return rows

rows = progress_rows(sys.argv[1], "gen")
last_unit_writing = [item for _, item in rows if item.endswith(" writing")][-1]
writing_begins = min(i for i, (_, item) in enumerate(rows) if item == last_unit_writing)
first_full = min((i for i, (p, _) in enumerate(rows) if p >= 100.0), default=len(rows))
assert first_full > writing_begins, f"100 % shown at line {first_full}, before the last unit was written"
# In every unit large enough to show it (5 % of the build or more), its
# first passes move the bar, and so does its writing.
units = {}
for i, (p, item) in enumerate(rows):
    units.setdefault(item.split(" ")[0].rstrip(":"), []).append(i)
checked = 0
for unit, lines in units.items():
    if rows[lines[-1]][0] - rows[lines[0]][0] < 5.0:
        continue
    items = [(i, rows[i][1]) for i in lines]
    passes = [rows[i][0] for i, item in items if item.endswith(": first pass")]
    assert max(passes) > min(passes), f"{unit}: its first passes did not move the bar"
    writing = [i for i, item in items if item.endswith(" writing")]
    assert rows[writing[-1]][0] > rows[writing[0]][0], f"{unit}: writing did not move the bar"
    checked += 1
assert checked >= 2, f"only {checked} units large enough to check"
print(f"progress: {len(rows)} lines, {checked} units checked, 100 % only once the last unit is written")

rows = progress_rows(sys.argv[2], "verify")
# Loading is a quarter of the work here (the loading, two passes over the
# values, one over the MTC): the lines that name it must carry about that.
loading = sum(b - a for (a, _), (b, item) in zip(rows, rows[1:]) if item.endswith(" loading"))
assert loading >= 15.0, f"loading moved the verify line by {loading:.1f} % only"
print(f"verify progress: {len(rows)} lines; loading moved it by {loading:.1f} %")
PY

# scripts/eta-check reads such a log: each line's ETA against the time its
# process really took. Here a run interrupted at 2 minutes (no end: not
# judged), then one of 10 minutes whose ETA was right at 1 minute in, 4x too
# short at 6, and a line below 10 % (not judged).
cat > "$work/eta.log" <<'LOG'
gen  12.0%  A: first pass  ETA 20m00s  elapsed 2m00s
gen   5.0%  A: first pass  ETA 1m00s  elapsed 0m30s
gen  10.0%  A: first pass  ETA 9m00s  elapsed 1m00s
gen  50.0%  A: round 1  ETA 1m00s  elapsed 6m00s
gen 100.0%  A writing  done in 10m00s  elapsed 10m00s
LOG
out=$("${DTB_SOURCE_DIR:-$(dirname "$0")/../..}/scripts/eta-check" "$work/eta.log") || fail "eta-check: $out"
[[ "$out" == *"process 2: 2 lines from 10.0 % on, 10.0 min; ETA within 2x of the time left: 50 % (ratio 0.25-1.00)"* ]] \
  || fail "eta-check read the log wrong: $out"
[[ "$out" != *"process 1"* ]] || fail "eta-check judged the interrupted run: $out"
echo "eta-check: $out" | head -1
