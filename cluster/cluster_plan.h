// The cost model of a distributed build (`dtb plan --ranks R`): what
// `mpirun -np R dtb gen` (cluster/distributed_build.h) would take.
//
// The model replays the distributed build's own schedule: rank 0
// coordinates, ranks 1..R-1 solve. An idle worker gets, first, the next part
// of a level of a unit being solved in parts (highest priority first), else
// the ready unit of highest priority (gen/unit_dag.h): a unit with men is
// solved in parts, level after level (each level cut into parts of
// part_positions_target() positions), a kings-only unit (one level, one
// slice) whole by one worker. Before its first work on a unit a worker
// receives every table of the unit's closure it does not yet hold, so a
// unit's parts go to idle workers that hold its closure first (the
// coordinator takes the idle worker that lacks the fewest bytes of it; the
// model, one that worked on the unit before, else the latest idle).
//
// Costs, at the measured per-thread rates (gen/cost_model.h):
//  - a part: its positions at the solving rate on its worker; its bytes are
//    its inputs (the level + 1 slices its man moves reach: the mean number
//    of such slices per slice of the material, sampled) and its values back,
//    at kPartBytesPerPosition (compressed; WDL builds: MTC is not modelled);
//  - with two workers or more, each part is checked (against its
//    successors) by a worker other than the one that solved it, at the
//    checking rate, handed out after the parts to solve; its bytes are its
//    inputs and its values; with one worker, rank 0's writing thread checks
//    every level of a unit solved in parts before writing it;
//  - a unit solved in parts is written by rank 0's writing thread, when every
//    part is checked, at the writing rate with rank 0's threads, one unit at
//    a time, while its main thread goes on; transfers queue one at a time on
//    rank 0's link at `bandwidth` bytes/s;
//  - a whole unit: solved and written on its worker, its tables sent back.
// Memory: a worker holds one part's working state and the value pages it
// touches, or a whole kings-only unit; rank 0 holds the packed values of
// every unit in parts at once, and starts another only while they fit
// `coordinator_budget` (always at least one). Table sizes are at the
// measured bits per position.
#pragma once

#include <cstdint>

namespace dtb::gen {

struct ClusterPlan {
  int ranks = 0, threads = 0;
  int units = 0;
  std::uint64_t parts = 0;      // parts of levels handed out
  double seconds = 0;           // wall time of the whole build
  double critical_path = 0;     // seconds of the longest chain of units, each level one part deep
  double busy_fraction = 0;     // of the workers' time, solving and checking
  double bytes_sent = 0;        // table files and parts, both directions
  double coordinator_busy = 0;  // of the wall time, rank 0's link busy (sending, receiving)
  double writer_busy = 0;       // of the wall time, rank 0's writing thread busy (checking and writing)
  std::uint64_t worker_memory = 0;
  std::uint64_t coordinator_memory = 0;
};

/// The positions of one part when a level of `level_positions` (both tables
/// of the unit) is cut for `workers` workers: about four parts a worker so
/// that a slow part does not hold the level up, between 2^12 (a message
/// per part must be worth its latency) and 2^22 (a worker's working state
/// stays a few MiB). The distributed build cuts its levels with it.
std::uint64_t part_positions_target(std::uint64_t level_positions, int workers);

struct ClusterSetup {
  int max_pieces = 0;
  int ranks = 2;                         // one coordinator and ranks - 1 workers
  int threads = 2;                       // per rank
  double bandwidth = 1e9;                // bytes/s through rank 0's link
  std::uint64_t coordinator_budget = 0;  // rank 0's --memory
  bool shared_dir = false;               // --shared-dir: closures and tables are not sent
};

/// The plan of building every table up to `max_pieces` as `setup` says.
ClusterPlan plan_cluster_build(const ClusterSetup& setup);

}  // namespace dtb::gen
