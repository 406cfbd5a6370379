#!/usr/bin/env bash
# Faults in long builds. A full disk while `dtb gen --mtc` reserves its
# scratch files, saves a checkpoint, writes a table or a sidecar, while
# `dtb gen --article62` solves a unit or writes its `.r62` tables and their
# counts, while `dtb gen --dtw` writes its tables, while `--timings` writes its file, and
# while `dtb verify --journal` writes its journal; SIGKILL at random points of a
# 5-piece unit. Each fault ends in a clear error (the file, "No space left on
# device"), never a crash or a hang, and leaves no file that looks finished
# but is not: every table and sidecar present is the reference's. The same
# command run again with room (or after the kill) ends with the reference's
# bytes and no scratch file, checkpoint or temporary file left.
# A full disk is a small tmpfs: without root (no mount) the test is skipped
# (exit 77). DTB_FAULT_SEED=N repeats the kill times of an earlier run.
set -euo pipefail
dtb=$1
fixture=${DTB_TEST_MTC_TABLES:?the 2-4 piece tables with MTC}
fail() { echo "FAIL: $*"; exit 1; }
. "$(dirname "$0")/../support/small_disk.sh"

# The 4-piece unit KKvKM: the fixture holds its reference files; every
# other 2-4 piece table is the start of each build.
ref=$fixture
cp -r "$fixture" "$work/deps"
rm "$work/deps"/KKvKM.* "$work/deps"/KMvKK.*

# new_disk SIZE: an empty tmpfs of SIZE; fresh_disk FREE [FROM]: one holding
# the start of the build (FROM's files) and FREE bytes more; room: make it large.
new_disk() {
  umount "$disk" 2>/dev/null || true
  mount -t tmpfs -o size="$1" tmpfs "$disk"
}
fresh_disk() {
  new_disk 256m
  cp "${2:-$work/deps}"/* "$disk/"
  mount -o remount,size=$(($(df -B1 --output=used "$disk" | tail -1) + $1)) "$disk"
}
room() { mount -o remount,size=256m "$disk"; }

# run LOG COMMAND...: status of a command that must neither hang nor crash.
run() {
  local log=$1 status=0
  shift
  timeout 300 "$@" >"$log.out" 2>"$log" || status=$?
  [ "$status" -lt 124 ] || fail "$* ended by signal or timeout (status $status): $(tail -3 "$log")"
  ! grep -qiE 'terminate called|abort|sanitizer|core dumped' "$log" || fail "$* crashed: $(tail -3 "$log")"
  return "$status"
}
gen() {  # gen LOG [options]: the unit's build into the tmpfs
  local log=$1
  shift
  run "$log" "$dtb" gen --only KKvKM --max-pieces 4 --mtc --threads 2 --quiet --out "$disk" "$@"
}

# full LOG WHAT: the command failed because the disk is full, naming the
# file (WHAT: a pattern of its name) in the tmpfs.
full() {
  grep -q "No space left on device" "$1" || fail "no 'No space left on device' in: $(tail -3 "$1")"
  grep -qE "$disk/[^ ]*$2" "$1" || fail "the error does not name the $2 file: $(tail -3 "$1")"
}

# nothing_false DIR REF [killed]: every table or sidecar in DIR is REF's;
# no temporary file unless a process was killed while writing it. A unit's
# `.phases` (its solve's timing, for a later run's progress line) differs
# run to run by design.
nothing_false() {
  local line
  while read -r line; do
    case $line in
      "Only in $2"*) ;;  # not built yet
      *.phases | *.phases" differ") ;;
      *.tmp-*) [ "${3:-}" = killed ] || fail "temporary file left behind: $line" ;;
      *.wdl | *.mtc | *.r62 | *.stats | *.mtc-stats | *.r62-stats | *" differ")
        fail "looks finished but is not the reference's: $line" ;;
    esac
  done < <(diff -rq "$1" "$2")
}

# DIR holds exactly the reference's files, byte for byte (timings aside).
same_as() {
  diff -rq -x '*.phases' "$1" "$2" >"$work/diff" || fail "not the reference's files: $(head -5 "$work/diff")"
}

# disk_full CASE FREE WHAT [options]: a build with FREE bytes to spare fails
# on the full disk naming WHAT; with room the same command finishes.
disk_full() {
  local name=$1 free=$2 what=$3
  shift 3
  fresh_disk "$free"
  gen "$work/$name.log" "$@" && fail "$name: the build succeeded on a full disk"
  full "$work/$name.log" "$what"
  nothing_false "$disk" "$ref"
  room
  gen "$work/$name.again.log" "$@" || fail "$name: the rerun with room failed: $(tail -3 "$work/$name.again.log")"
  same_as "$disk" "$ref"
  echo "ok: $name: $(grep -m1 'No space' "$work/$name.log" | cut -c1-150)"
}

# Sizes from the positions of a side (its .stats): a .mtc-work holds a
# byte a position; a side's packed values (a .values-work, or its part of a
# checkpoint) 3 bits; a table or sidecar takes whole pages.
positions=$(cut -d' ' -f4 "$ref/KKvKM.stats")
mtc_work=$positions
values=$(((positions + 31) / 32 * 8 + (positions + 63) / 64 * 8))
checkpoint=$((2 * values))
page=$(getconf PAGESIZE)
tables=0
for f in "$ref"/KKvKM.{wdl,mtc} "$ref"/KMvKK.{wdl,mtc}; do tables=$((tables + ($(stat -c %s "$f") + page - 1) / page * page)); done

disk_full scratch $((mtc_work * 3 / 2)) '\.mtc-work'
disk_full spilled-scratch $((2 * values + mtc_work / 2)) '\.mtc-work' --spill-values
# The first checkpoint, then a later one beside the one it replaces.
disk_full first-checkpoint $((2 * mtc_work + checkpoint / 2)) '\.level' --checkpoint-minutes 0
disk_full checkpoint $((2 * mtc_work + checkpoint * 3 / 2)) '\.level' --checkpoint-minutes 0
grep -q "resumed at level" "$work/checkpoint.again.log" || fail "the rerun did not resume from the checkpoint before the full disk"
# No checkpoint in a run of seconds: the tables are what fills the disk, or
# a sidecar once they are written.
disk_full table $((2 * mtc_work + tables / 2)) '\.(wdl|mtc)\.tmp'
disk_full sidecar $((2 * mtc_work + tables + page)) 'stats'
# With spilled values a checkpoint is a few hashes: the tables fill the
# disk, and the rerun resumes the last level from the scratch files.
disk_full spilled-table $((2 * values + 2 * mtc_work + 4 * page + tables / 2)) '\.(wdl|mtc)\.tmp' \
  --spill-values --checkpoint-minutes 0
grep -q "resumed at level" "$work/spilled-table.again.log" || fail "the spilled build did not resume from its checkpoint"

# A unit found finished but with the checkpoint and scratch files of a run
# killed before it removed them: they go.
fresh_disk $((64 << 20))
cp "$ref"/KKvKM.* "$ref"/KMvKK.* "$disk/"
for f in KKvKM.level KKvKM.mtc-work KMvKK.mtc-work KKvKM.values-work KMvKK.values-work KKvKM.mtc-stats.tmp-a1B2c3; do
  echo x >"$disk/$f"
done
gen "$work/leftovers.log" || fail "the rerun of a finished unit failed: $(tail -3 "$work/leftovers.log")"
same_as "$disk" "$ref"
echo "ok: the scratch files, checkpoint and temporary files of a finished unit are removed"

# `dtb gen --dtw` (.dtw and .rule tables, written one after another once
# solved) with room for a few of them: the error names a table, the ones
# written are whole and the reference's, no temporary file is left, and the
# rerun with room writes the rest.
dtw_ref=$work/dtw-ref
run "$work/dtw-ref.log" "$dtb" gen --max-pieces 3 --dtw --threads 2 --quiet --out "$dtw_ref" ||
  fail "the .dtw reference build failed: $(tail -3 "$work/dtw-ref.log")"
new_disk 4m
cp "$dtw_ref"/*.wdl "$dtw_ref"/*.stats "$disk/"
mount -o remount,size=$(($(df -B1 --output=used "$disk" | tail -1) + 40000)) "$disk"
dtw() { run "$1" "$dtb" gen --max-pieces 3 --dtw --threads 2 --quiet --out "$disk"; }
dtw "$work/dtw.log" && fail "dtb gen --dtw succeeded on a full disk"
full "$work/dtw.log" '\.(dtw|rule)\.tmp'
ls "$disk" | grep -q tmp && fail "temporary file left by dtb gen --dtw: $(ls "$disk")"
for f in "$disk"/*.dtw "$disk"/*.rule; do
  [ -e "$f" ] || continue
  cmp -s "$f" "$dtw_ref/$(basename "$f")" || fail "$(basename "$f") looks finished but is not the reference's"
done
room
dtw "$work/dtw.again.log" || fail "the rerun of dtb gen --dtw with room failed: $(tail -3 "$work/dtw.again.log")"
same_as "$disk" "$dtw_ref"
echo "ok: dtw: $(grep -m1 'No space' "$work/dtw.log" | cut -c1-150)"

# --timings FILE on a full disk: the build's tables are there, but the
# command fails naming the file, and leaves neither it nor a temporary file.
new_disk "$page"
head -c "$page" /dev/zero >"$disk/fill" 2>/dev/null || true
run "$work/timings.log" "$dtb" gen --max-pieces 3 --threads 2 --quiet --out "$work/timings-tables" \
  --timings "$disk/units.tsv" && fail "dtb gen succeeded with --timings on a full disk"
full "$work/timings.log" 'units\.tsv'
[ "$(ls "$disk")" = fill ] || fail "--timings left a file on the full disk: $(ls "$disk")"
echo "ok: timings: $(grep -m1 'No space' "$work/timings.log" | cut -c1-150)"

# `dtb verify --journal`, the journal on a tmpfs of one page: it holds the
# journal of the first unit (KvK), not the next one beside it. The journal
# left lists that unit alone; the rerun with room takes it from there,
# verifies the rest and passes.
mkdir "$work/three"
for f in "$fixture"/*; do
  name=$(basename "$f")
  material=${name%%.*}
  [ ${#material} -le 4 ] && cp "$f" "$work/three/"  # 2 and 3 pieces: "KvK", "KKvM"
done
journal=$disk/journal
new_disk "$page"
verify() { run "$@" "$dtb" verify "$work/three" --journal "$journal" --quiet; }
verify "$work/verify.log" && fail "dtb verify succeeded with its journal on a full disk"
full "$work/verify.log" journal
ls "$disk" | grep -q tmp && fail "temporary file left beside the journal: $(ls "$disk")"
[ "$(grep -v '^#' "$journal" | cut -d' ' -f3 | tr '\n' ' ')" = "KvK.mtc KvK.wdl " ] ||
  fail "the journal does not list the first unit alone: $(cat "$journal")"
journaled=$(grep -c '\.wdl$' "$journal")
room
verify "$work/verify.again.log" || fail "the rerun of dtb verify with room failed: $(tail -3 "$work/verify.again.log")"
grep -q "; $journaled of the tables by an earlier run" "$work/verify.again.log.out" ||
  fail "the rerun did not take exactly the $journaled journaled tables from the journal: $(cat "$work/verify.again.log.out")"
echo "ok: verify: $(grep -m1 'No space' "$work/verify.log" | cut -c1-150)"

# `dtb gen --article62` on 2-3 pieces whose KKvK converts 44 plies later
# than it does (stretch_mtc): KKvM, KMvK and KMvM then need `.r62` tables,
# solved under the rule one unit after another, KKvM first (with MvKK). A
# full disk while it reserves the unit's MTC scratch files, writes its first
# table, the first table's counts, and the second table's counts (the
# unit's tables both in place, so a rerun must not take the unit as done).
stretch=${DTB_BUILD_DIR:?}/tests/stretch_mtc
r62_start=$work/r62-start
r62_ref=$work/r62-ref
r62_build() {  # r62_build LOG DIR [options]
  local log=$1 dir=$2
  shift 2
  run "$log" "$dtb" gen --max-pieces 3 --mtc --threads 2 --quiet --out "$dir" "$@"
}
r62_build "$work/r62-start.log" "$r62_start" || fail "the 2-3 piece build failed: $(tail -3 "$work/r62-start.log")"
"$stretch" "$r62_start/KKvK.mtc" KKvK 44 || fail "stretch_mtc failed"
r62_build "$work/r62-recount.log" "$r62_start" || fail "recounting the stretched KKvK failed"
cp -r "$r62_start" "$r62_ref"
r62_build "$work/r62-ref.log" "$r62_ref" --article62 || fail "the .r62 reference build failed: $(tail -3 "$work/r62-ref.log")"
for f in KKvM MvKK KMvK KvKM; do
  [ -s "$r62_ref/$f.r62" ] && [ -s "$r62_ref/$f.r62-stats" ] || fail "the reference has no .r62 table and counts of $f"
done
unit_scratch=$(( ($(cut -d' ' -f4 "$r62_ref/KKvM.stats") + page - 1) / page * page +
                 ($(cut -d' ' -f4 "$r62_ref/MvKK.stats") + page - 1) / page * page ))
r62_disk_full() {  # r62_disk_full CASE FREE WHAT: as disk_full, for dtb gen --article62
  local name=$1 free=$2 what=$3
  fresh_disk "$free" "$r62_start"
  r62_build "$work/$name.log" "$disk" --article62 && fail "$name: the build succeeded on a full disk"
  full "$work/$name.log" "$what"
  nothing_false "$disk" "$r62_ref"
  room
  r62_build "$work/$name.again.log" "$disk" --article62 ||
    fail "$name: the rerun with room failed: $(tail -3 "$work/$name.again.log")"
  same_as "$disk" "$r62_ref"
  echo "ok: $name: $(grep -m1 'No space' "$work/$name.log" | cut -c1-150)"
}
r62_disk_full r62-scratch $((unit_scratch / 2)) '\.mtc-work'
r62_disk_full r62-table "$unit_scratch" '\.r62\.tmp'
r62_disk_full r62-counts $((unit_scratch + page)) '\.r62-stats'
r62_disk_full r62-second-counts $((unit_scratch + 3 * page)) '\.r62-stats'

# SIGKILL at random points of the 5-piece unit KKKKvM (a level a row of its
# man, a checkpoint after each), rerun after each kill until it finishes:
# the reference's bytes. Its dependency KKKKvK comes from the reference.
seed=${DTB_FAULT_SEED:-$RANDOM}
echo "kill times seeded with $seed (DTB_FAULT_SEED=$seed repeats them)"
RANDOM=$seed
five=$work/five
cp -r "$work/deps" "$five"
gen5=("$dtb" gen --only KKKKvM --max-pieces 5 --mtc --threads 2 --quiet)
run "$work/five.log" "${gen5[@]}" --out "$five" --timings "$work/five.tsv" || fail "the 5-piece reference build failed: $(tail -3 "$work/five.log")"
seconds=$(awk -F'\t' '$1 == "KKKKvM" { print $4 + $5 + $6 + $7 + $8 }' "$work/five.tsv")

# kills NAME [options]: up to 4 kills, each at a random time within half
# the unit's time in the reference (a run first checks the tables present,
# then resumes: so the kill lands in that check, a level, a checkpoint or
# the writing, and most runs are killed), then a run to the end.
kills() {
  local name=$1 dir=$work/$1 kills=0 status delay times=""
  shift
  cp -r "$work/deps" "$dir"
  cp "$five"/KKKKvK.* "$five"/KvKKKK.* "$dir/"
  while :; do
    "${gen5[@]}" --checkpoint-minutes 0 --out "$dir" "$@" >/dev/null 2>>"$dir.log" &
    local pid=$!
    if [ "$kills" -lt 4 ]; then
      delay=$(awk -v r=$RANDOM -v t="$seconds" 'BEGIN { printf "%.2f", 0.3 + r / 32768 * t / 2 }')
      sleep "$delay"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    status=0
    wait "$pid" 2>/dev/null || status=$?
    [ "$status" -eq 0 ] && break
    [ "$status" -eq 137 ] || fail "$name: dtb gen failed (status $status): $(tail -3 "$dir.log")"
    nothing_false "$dir" "$five" killed
    kills=$((kills + 1))
    times="$times $delay"
  done
  same_as "$dir" "$five"
  echo "ok: $name: killed after$times s, then the reference's bytes"
}
kills killed
kills killed-spilled --spill-values
