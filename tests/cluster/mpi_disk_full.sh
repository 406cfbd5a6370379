#!/usr/bin/env bash
# A full disk in a distributed build. The output directory is a small tmpfs,
# and the workers' scratch directories (the closure tables rank 0 sends
# them) are inside it, or, with --shared-dir, the workers write the tables
# there themselves. Each run ends with a non-zero exit and "No space left on
# device", never a hang, and leaves no temporary file; the rerun with room
# writes the one-process bytes.
# At 190 KiB a worker's disk fills while rank 0 is still sending it a
# closure's files: rank 0 blocked on the next chunk and never read the
# worker's failure (5 runs in 5 hung) until a failed worker kept receiving.
set -euo pipefail
dtb=$1
. "$(dirname "$0")/mpi_support.sh"
. "$(dirname "$0")/../support/small_disk.sh"
fail() { echo "FAIL: $*"; exit 1; }
one_process_build "$work/ref" --only KKvMM

gen_mpi() {  # gen_mpi LOG [options]: the distributed build into the tmpfs, at most 120 s
  local log=$1 status=0
  shift
  timeout 120 mpirun --oversubscribe --bind-to none -np 3 "$dtb" gen --only KKvMM --out "$disk" --threads 1 \
    --quiet "$@" >"$log" 2>&1 || status=$?
  pkill -9 -f "gen --only KKvMM --out $disk" 2>/dev/null || true  # ranks left by a timeout
  return "$status"
}

for run in "150k" "190k" "190k" "250k --shared-dir"; do
  read -r size options <<<"$run"
  mount -t tmpfs -o size="$size" tmpfs "$disk"
  status=0
  # shellcheck disable=SC2086  # options: none or one word
  gen_mpi "$work/log" $options || status=$?
  [ "$status" -ne 124 ] || fail "$run: the job hung on a full disk: $(grep -v '^gen ' "$work/log" | tail -3)"
  [ "$status" -ne 0 ] || fail "$run: the job succeeded on a full disk"
  grep -q "No space left on device" "$work/log" || fail "$run: no 'No space left on device': $(tail -3 "$work/log")"
  mount -o remount,size=64m "$disk"
  # shellcheck disable=SC2086
  gen_mpi "$work/again" $options || fail "$run: the rerun with room failed: $(tail -3 "$work/again")"
  same_as "$disk" "$work/ref" 16
  ! find "$disk" -name '*.tmp-*' | grep -q . || fail "$run: temporary files left: $(find "$disk" -name '*.tmp-*')"
  echo "ok: $run: $(grep -m1 'No space' "$work/log" | cut -c1-140)"
  umount "$disk"
done
