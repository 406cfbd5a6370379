# Shared by the mpirun tests: how they launch a job, and how they compare
# its tables with the one-process build of the test fixture.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
# --oversubscribe: 3 ranks on a 2-core machine; --bind-to none: each rank's
# OpenMP threads may use every core (Open MPI binds 2 ranks to one core each).
run_mpi() {
  local ranks=$1
  shift
  mpirun --oversubscribe --bind-to none -np "$ranks" "$@"
}

# Every table file in $1 (.wdl and .stats) is byte-identical to the fixture's
# one-process build, and there are $2 tables.
same_as_fixture() {
  local dir=$1 expected=$2 f n=0
  for f in "$dir"/*.wdl "$dir"/*.stats; do
    cmp -s "$f" "${DTB_TEST_TABLES:?}/$(basename "$f")" || { explain_mismatch "$dir" "$f"; return 1; }
  done
  n=$(ls "$dir"/*.wdl | wc -l)
  [ "$n" -eq "$expected" ] || { echo "$dir: $n tables, expected $expected"; return 1; }
}

# A table of the job differs from the one-process build (seen once in ~100
# runs under load, not understood yet): say how (its counts next to the
# fixture's, and what `dtb verify` finds re-deriving every value from its
# successors), and keep the directory for a look.
explain_mismatch() {
  local dir=$1 file=$2 name kept
  name=$(basename "$file" | sed 's/\.[a-z]*$//')
  echo "$file differs from the one-process build"
  echo "counts (.stats), this job then the fixture:"
  cat "$dir/$name.stats" "${DTB_TEST_TABLES:?}/$name.stats" 2>&1
  echo "dtb verify $dir:"
  "$dtb" verify "$dir" --quiet 2>&1 | tail -n 5 || true
  kept=${DTB_BUILD_DIR:-/tmp}/mpi-mismatch-$$
  rm -rf "$kept" && cp -r "$dir" "$kept" && echo "the job's tables kept in $kept"
}

# The pid of rank $2 of the job whose command line contains $1.
rank_pid() {
  local pattern=$1 rank=$2 pid
  for pid in $(pgrep -f -- "$pattern"); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}
