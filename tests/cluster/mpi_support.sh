# Shared by the mpirun tests: how they launch a job, and how they compare
# its tables with a one-process build.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
# --oversubscribe: 3 ranks on a 2-core machine; --bind-to none: each rank's
# OpenMP threads may use every core (Open MPI binds 2 ranks to one core each).
run_mpi() {
  local ranks=$1
  shift
  mpirun --oversubscribe --bind-to none -np "$ranks" "$@"
}

# A one-process build into $1 ($2...: dtb gen's arguments but --out), made
# by the test itself. Not the suite's shared fixture: any other ctest run in
# this build directory empties that directory and builds it again, and a
# comparison running meanwhile finds the first file not yet rebuilt
# "different" (MMvM.wdl, the last 3-piece unit built, is the usual one).
one_process_build() {
  local dir=$1
  shift
  "$dtb" gen "$@" --out "$dir" --threads 2 --quiet > /dev/null
}

# Every table file in $1 (.wdl and .stats) is byte-identical to the
# one-process build in $2, and there are $3 tables.
same_as() {
  local dir=$1 reference=$2 expected=$3 f n=0
  for f in "$dir"/*.wdl "$dir"/*.stats; do
    cmp -s "$f" "$reference/$(basename "$f")" || { explain_mismatch "$dir" "$f" "$reference"; return 1; }
  done
  n=$(ls "$dir"/*.wdl | wc -l)
  [ "$n" -eq "$expected" ] || { echo "$dir: $n tables, expected $expected"; return 1; }
}

# A table of the job differs from the one-process build: say how (its counts
# next to the reference's, and what `dtb verify` finds re-deriving every
# value from its successors), and keep the directory for a look.
explain_mismatch() {
  local dir=$1 file=$2 reference=$3 name kept
  name=$(basename "$file" | sed 's/\.[a-z]*$//')
  echo "$file differs from the one-process build"
  echo "counts (.stats), this job then the one-process build:"
  cat "$dir/$name.stats" "$reference/$name.stats" 2>&1
  echo "dtb verify $dir:"
  "$dtb" verify --tables "$dir" 2>&1 | tail -n 5 || true
  kept=${DTB_BUILD_DIR:-/tmp}/mpi-mismatch-$$
  rm -rf "$kept" && cp -r "$dir" "$kept" && echo "the job's tables kept in $kept"
}

# The pid of rank $2 of the job whose command line contains $1.
rank_pid() {
  local pattern=$1 rank=$2 pid
  for pid in $(pgrep -f -- "$pattern"); do
    if { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}
