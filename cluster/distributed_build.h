// `mpirun -np R dtb gen ...`: the same build as gen/table_builder.h, its
// units solved by many processes (issue 14).
//
// Rank 0 coordinates and writes every table file; ranks 1..R-1 solve. Rank 0
// checks what is already built (a rerun resumes exactly like a one-process
// build), makes the graph of the units still to build (gen/unit_dag.h) and
// hands each idle worker the ready unit of highest priority (the longest
// chain of work behind it). Before a unit, the worker receives every table of
// the unit's dependency closure that it does not hold yet; after it, rank 0
// receives the unit's tables (.wdl, .mtc, .stats) and writes them
// atomically into the output directory. So no rank assumes another's file
// system, every table file is written once by rank 0, and a unit is solved
// by exactly one worker with the generator's own code: the files are the
// bytes a one-process build writes, whatever the number of ranks, their
// speed or the order in which they finish.
//
// With `shared_dir` (the user says every rank sees the output directory),
// workers read and write it directly and nothing is sent but the schedule.
//
// Faults: a worker that dies ends the job (mpirun kills the others and exits
// non-zero, naming the rank); a worker that fails (a damaged input, a full
// disk, an interrupt) sends why and rank 0 aborts the job with that message.
// Nothing is written but whole files, so a rerun resumes from the finished
// tables. Granularity: a unit (a material and its colour twin), not a slice:
// a unit's levels depend on one another and share its working state.
#pragma once

#include <string>

#include "gen/table_builder.h"

namespace dtb::cluster {

struct DistributedOptions {
  bool shared_dir = false;  // every rank sees options.out_dir
  std::string scratch;      // a worker's own table directory ("" : <out>/.rank-<R>)
  std::string log_path;     // per unit: rank, seconds, bytes (TSV), written by rank 0
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
