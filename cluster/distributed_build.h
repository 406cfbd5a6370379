// `mpirun -np R dtb gen ...`: the same build as gen/table_builder.h, its
// units solved by many processes.
//
// Rank 0 coordinates and writes every table file; ranks 1..R-1 solve. Rank 0
// checks what is already built (a rerun resumes exactly like a one-process
// build), makes the graph of the units still to build (gen/unit_dag.h) and
// hands idle workers work, the unit of highest priority (the longest chain
// of work behind it) first:
//  - a unit with men is solved level by level in parts (slice_task.h): a
//    part is a set of slices of one level, each with its colour reversal
//    (closed under the level's king moves). Rank 0 keeps the unit's values,
//    sends each part the level + 1 values its man moves reach, puts the
//    returned values in place, and when a level's parts are all back cuts
//    the next; after level 0 it writes the tables. So every slice is solved
//    by exactly one rank, and a level keeps as many workers busy as it has
//    parts, however long the chain of units;
//    Rank 0 starts another unit in parts only while the values of all of
//    them fit its --memory bound (the first always fits: the bound was
//    checked against the largest unit before the build);
//  - a kings-only unit (one level, one slice) is solved whole by a worker,
//    which sends its tables (.wdl, .mtc, .stats) back.
// Before its first work on a unit, a worker receives every table of the
// unit's dependency closure that it does not hold yet (captures and
// promotions read them). No rank assumes another's file system, every table
// file is written once by rank 0, and every value is computed by the
// generator's own solver: the files are the bytes a one-process build
// writes, whatever the number of ranks, their speed or the order in which
// they finish.
//
// Nothing a worker returns is trusted, since a distributed build that could
// write a wrong table silently would be worse than none: a part comes back
// with the XXH3 of what its worker solved, which rank 0 checks again once
// the values are in place (slice_task.h, PartChecksum), and before a unit
// solved in parts is written rank 0 checks every level of it against its
// successors as `dtb verify` does (verify/verifier.h). A failure stops the
// build naming the unit, level and slice; no table of that unit is written.
//
// With `shared_dir` (the user says every rank sees the output directory),
// workers read and write it directly and nothing is sent but the schedule
// and the parts.
//
// Faults: a worker that dies ends the job (mpirun kills the others and exits
// non-zero, naming the rank); a worker that fails (a damaged input, a full
// disk, an interrupt) sends why and rank 0 aborts the job with that message.
// Nothing is written but whole files, so a rerun resumes from the finished
// tables (a unit interrupted mid-way starts again).
#pragma once

#include <string>

#include "gen/table_builder.h"

namespace dtb::cluster {

struct DistributedOptions {
  bool shared_dir = false;  // every rank sees options.out_dir
  std::string scratch;      // a worker's own table directory ("" : <out>/.rank-<R>)
  std::string log_path;     // per unit: ranks, parts, seconds, bytes (TSV), written by rank 0
};

/// Whether this process was started by mpirun (Open MPI or PMIx variables).
bool launched_by_mpirun();

/// Run the build on every rank of MPI_COMM_WORLD (call after MPI init, from
/// every rank). Rank 0 fills `summary` and returns the build's status;
/// workers return Ok after the coordinator stops them.
gen::BuildStatus build_distributed(const gen::BuildOptions& options, const DistributedOptions& distributed,
                                   gen::BuildSummary& summary, std::string& error);

/// This process's rank and the number of ranks.
int mpi_rank();
int mpi_ranks();

/// MPI_Init_thread / MPI_Finalize for the lifetime of the object.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

/// End the whole job with `code` (MPI_Abort): a failure on one rank.
[[noreturn]] void abort_job(int code);

}  // namespace dtb::cluster
