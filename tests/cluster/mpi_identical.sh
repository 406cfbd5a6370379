#!/usr/bin/env bash
# mpirun builds write the bytes of a one-process build: 2 and 3 ranks, tables
# sent between ranks or a shared directory, and a rank slowed down mid-build
# (stopped for a while: the schedule changes, the files must not).
set -euo pipefail
dtb=$1
. "$(dirname "$0")/mpi_support.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
one_process_build "$work/ref3" --max-pieces 3
one_process_build "$work/refKKvMM" --only KKvMM
one_process_build "$work/refKKvMM-mtc" --only KKvMM --mtc

run_mpi 2 "$dtb" gen --max-pieces 3 --out "$work/np2" --threads 2 --quiet > /dev/null
same_as "$work/np2" "$work/ref3" 16

# 2-4 pieces but only what KKvMM needs: 9 units, several ready at once.
run_mpi 3 "$dtb" gen --only KKvMM --out "$work/np3" --threads 1 --ranks-log "$work/np3.tsv" --quiet > /dev/null &
job=$!
for _ in $(seq 100); do  # stop rank 2 once the build is under way, then let it go on
  [ "$(ls "$work/np3"/*.wdl 2>/dev/null | wc -l)" -ge 4 ] && break
  sleep 0.1
done
if slow=$(rank_pid "--out $work/np3" 2); then
  kill -STOP "$slow"; sleep 2; kill -CONT "$slow"
fi
wait $job
same_as "$work/np3" "$work/refKKvMM" 16
# The log has one line per unit, each solved by rank 1 or 2, and the
# workers received the tables their units read.
units=$(tail -n +2 "$work/np3.tsv" | wc -l)
[ "$units" -eq 9 ] || { echo "ranks log: $units units, expected 9"; exit 1; }
# Columns: unit, ranks, parts, positions, seconds, bytes to and from the ranks.
awk -F'\t' 'NR > 1 { n = split($2, r, ","); if (n == 0) bad = 1; for (k = 1; k <= n; ++k) if (r[k] != 1 && r[k] != 2) bad = 1 }
             END { exit bad }' "$work/np3.tsv" ||
  { echo "a unit was solved by rank 0 or an unknown rank"; cat "$work/np3.tsv"; exit 1; }
awk -F'\t' 'NR > 1 { sent += $6 } END { exit !(sent > 0) }' "$work/np3.tsv" ||
  { echo "nothing was sent to a worker"; exit 1; }
# Units with men went in parts, and some level of them was spread over both workers.
awk -F'\t' 'NR > 1 && $1 ~ /M/ && $3 == 0 { bad = 1 } END { exit bad }' "$work/np3.tsv" ||
  { echo "a unit with men was solved whole"; cat "$work/np3.tsv"; exit 1; }
awk -F'\t' 'NR > 1 && $2 == "1,2" { both = 1 } END { exit !both }' "$work/np3.tsv" ||
  { echo "no unit had parts on both workers"; cat "$work/np3.tsv"; exit 1; }

# With MTC: the parts carry their MTC back, and the .mtc files are the
# one-process build's too.
run_mpi 3 "$dtb" gen --only KKvMM --mtc --out "$work/mtc" --threads 1 --quiet > /dev/null
n=0
for f in "$work/mtc"/*.mtc "$work/mtc"/*.mtc-stats; do
  cmp -s "$f" "$work/refKKvMM-mtc/$(basename "$f")" || { echo "$f differs from the one-process build"; exit 1; }
  n=$((n + 1))
done
[ "$n" -eq 32 ] || { echo "$work/mtc: $n .mtc and .mtc-stats files, expected 16 of each"; exit 1; }

run_mpi 3 "$dtb" gen --max-pieces 3 --out "$work/shared" --shared-dir --threads 1 --quiet > /dev/null
same_as "$work/shared" "$work/ref3" 16
[ -z "$(ls -A "$work/shared" | grep -v -e '\.wdl$' -e '\.stats$')" ] || { echo "leftovers in the shared directory"; exit 1; }
echo "mpirun -np 2 and 3 (sent tables, shared directory, a stopped rank, MTC): the one-process bytes"
