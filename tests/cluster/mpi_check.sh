#!/usr/bin/env bash
# A distributed build writes no table it cannot vouch for. A worker's test
# hook (DTB_TEST_ALTER_PART) changes one value of one part of MMvM level 3:
#  - before the part's checksum, as a wrong solve would: the check of that
#    part against its successors fails the build, done by the other worker
#    (-np 3) or by rank 0 before writing (-np 2, one worker);
#  - after it, as damage between the worker and rank 0 would: the part's
#    checksum in place fails it.
# Either way the job exits non-zero with a message naming the unit and the
# level, and neither table of the unit (MMvM, MvMM) is written.
set -euo pipefail
dtb=$1
. "$(dirname "$0")/mpi_support.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

refused() {  # $1: when the value is changed; $2: what the message must say; $3: ranks
  local when=$1 says=$2 ranks=$3 out="$work/$1-$3" status=0
  DTB_TEST_ALTER_PART=MMvM:3:$when run_mpi "$ranks" -x DTB_TEST_ALTER_PART "$dtb" gen --max-pieces 3 --out "$out" \
    --threads 1 --quiet > "$out.log" 2>&1 || status=$?
  [ "$status" -ne 0 ] || { echo "$when -np $ranks: the build succeeded with a changed value"; cat "$out.log"; exit 1; }
  grep -q -- "$says" "$out.log" || { echo "$when -np $ranks: no message saying '$says':"; cat "$out.log"; exit 1; }
  grep -q "MMvM level 3" "$out.log" || { echo "$when -np $ranks: the message names no unit and level:"; cat "$out.log"; exit 1; }
  for t in MMvM MvMM; do
    [ ! -e "$out/$t.wdl" ] || { echo "$when -np $ranks: $t.wdl was written"; exit 1; }
  done
  grep -m1 -o "dtb gen: .*" "$out.log" | cut -c1-200
}

refused solved "part of MMvM level 3 (.*) failed, so no table of MMvM is written: value mismatch at MMvM level 3 slice" 3
refused solved "MMvM: its values, solved in parts, fail the check of its levels, so none of its tables is written: value mismatch at MMvM level 3 slice" 2
refused sent "its values in place are not those it solved" 3

# Unaltered, the same build passes its checks and writes every table.
one_process_build "$work/ref" --max-pieces 3
run_mpi 3 "$dtb" gen --max-pieces 3 --out "$work/sound" --threads 1 --quiet > /dev/null
same_as "$work/sound" "$work/ref" 16
echo "a value changed in a part (solved or sent): the build fails naming the unit and level, writes no table of it"
