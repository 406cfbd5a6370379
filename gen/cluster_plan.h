// The cost model of a distributed build (`dtb plan --ranks R`): what
// `mpirun -np R dtb gen` (cluster/distributed_build.h) would take.
//
// The model replays the distributed build's own schedule: rank 0
// coordinates, ranks 1..R-1 solve one unit at a time, an idle rank gets the
// ready unit of highest priority (gen/unit_dag.h), and before solving it
// receives every table of the unit's closure it does not yet hold; each
// unit's tables then go back to rank 0. A unit takes its solving and writing
// time at the measured per-thread rates (gen/cost_model.h) plus its bytes
// over the network at `bandwidth` bytes/s (the coordinator sends one file
// at a time). Table sizes are at the measured bits per position.
// Memory per rank is the largest unit it may solve plus the overhead and the
// least block cache; rank 0 holds one table file while it passes it on.
#pragma once

#include <cstdint>

namespace dtb::gen {

struct ClusterPlan {
  int ranks = 0, threads = 0;
  int units = 0;
  double seconds = 0;            // wall time of the whole build
  double critical_path = 0;      // seconds of the longest chain of units (no rank count beats it)
  double busy_fraction = 0;      // of the workers' time, solving
  double bytes_sent = 0;         // table files, both directions
  std::uint64_t worker_memory = 0;
  std::uint64_t coordinator_memory = 0;
};

/// The plan of building every table up to `max_pieces` on `ranks` processes
/// of `threads` threads each (ranks >= 2: one coordinator and workers).
ClusterPlan plan_cluster_build(int max_pieces, int ranks, int threads, double bandwidth);

}  // namespace dtb::gen
