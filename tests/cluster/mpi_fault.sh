#!/usr/bin/env bash
# A worker killed with kill -9 mid-build ends the job with a non-zero exit
# and a message naming the rank, not a hang; the rerun keeps what was
# finished (never a half-written table) and completes the one-process bytes.
set -euo pipefail
dtb=$1
. "$(dirname "$0")/mpi_support.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
one_process_build "$work/ref" --only KKvMM

run_mpi 3 "$dtb" gen --only KKvMM --out "$work/t" --threads 1 > "$work/log" 2>&1 &
job=$!
for _ in $(seq 300); do
  [ "$(ls "$work/t"/*.wdl 2>/dev/null | wc -l)" -ge 3 ] && break
  sleep 0.1
done
victim=$(rank_pid "--out $work/t" 1) || { echo "rank 1 not found"; cat "$work/log"; exit 1; }
kill -9 "$victim"
for _ in $(seq 600); do kill -0 "$job" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$job" 2>/dev/null; then
  kill -9 "$job"; echo "the job hung after a rank was killed"; cat "$work/log"; exit 1
fi
status=0
wait $job || status=$?
[ "$status" -ne 0 ] || { echo "the job survived a killed rank (exit 0)"; cat "$work/log"; exit 1; }
grep -q -i -e "signal 9" -e "killed" "$work/log" || { echo "no message about the killed rank:"; cat "$work/log"; exit 1; }
kept=$(ls "$work/t"/*.wdl | wc -l)

run_mpi 2 "$dtb" gen --only KKvMM --out "$work/t" --threads 2 > "$work/rerun" 2>&1
grep -q "already present and checked" "$work/rerun" || { echo "the rerun did not resume:"; cat "$work/rerun"; exit 1; }
same_as "$work/t" "$work/ref" 16
echo "a killed rank: job failed (exit $status), rerun kept $kept tables and completed them identically"
