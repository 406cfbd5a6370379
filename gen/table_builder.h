// `dtb gen`: build every missing WDL table up to N pieces, in build order.
//
// Memory is bounded (--memory): a unit is solved level by level with its
// values packed (unit_solver.h), and the finished tables it depends on are
// read back from their files through the probe library's block cache
// (finished_tables.h), which gets whatever the largest unit leaves of the
// budget. A build that cannot fit says so before it starts.
//
// A rerun resumes: a table already on disk is opened and checked (header and
// every checksum) before it is trusted; a missing or damaged one is (re)built. Tables are written to a temporary file
// and renamed into place when complete (compress/table_file.h), so an
// interrupted run never leaves a broken table; leftover temporary files of a
// killed run are removed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "gen/mtc_report.h"
#include "support/progress_bar.h"
#include "gen/table_stats.h"
#include "solver/unit_solver.h"
#include "index/material.h"

namespace dtb::gen {

struct BuildOptions {
  int max_pieces = 0;
  std::string out_dir = "tables";
  /// Build only the unit of this material (and whatever it depends on).
  std::optional<Material> only;
  /// Build only materials without men (they depend on nothing else).
  bool kings_only = false;
  /// Solve every kings-only unit with half a byte of working state a
  /// position (SolveOptions::compact_states), not only those that need it
  /// to fit the bound: for tests and measurements.
  bool compact_states = false;
  /// Keep the values of every unit with men in scratch files while it is
  /// solved (SolveOptions::values_scratch_dir), not only of those that need
  /// it to fit the bound: for tests and measurements.
  bool spill_values = false;
  /// Also write `.mtc` tables (moves to conversion, solver/mtc_values.h). A unit
  /// whose `.wdl` tables exist but not its `.mtc` ones is solved again.
  bool mtc = false;
  bool show_progress = false;
  /// Bound on the whole process's memory, bytes; 0: default_memory_bytes().
  std::uint64_t memory_bytes = 0;
  /// Save a unit being solved after a level once this many seconds have
  /// passed since the last save (solver/level_checkpoint.h): a rerun resumes
  /// the unit at its next level. 0: after every level.
  double checkpoint_seconds = 300;
};

/// The default memory bound: a quarter of the physical memory.
std::uint64_t default_memory_bytes();

/// How a build divides its memory (`dtb gen` prints it at start).
struct MemoryPlan {
  std::uint64_t budget = 0;         // the bound
  std::uint64_t largest_unit = 0;   // solving and writing the largest unit to build
  Material largest;                 // that unit
  std::uint64_t cache = 0;          // block cache for the finished tables
  std::uint64_t resident = 0;       // solved tables kept in memory (finished_tables.h)
  std::uint64_t least_budget = 0;   // the least bound that would do
  std::set<Material> compact_units; // kings-only units solved in half a byte a position (unit_memory_within)
  std::set<Material> spilled_units; // units with men whose values are kept in scratch files (unit_memory_within)
  bool fits() const { return budget >= least_budget; }
};

/// The memory plan of the units to build (those not yet on disk).
MemoryPlan plan_memory(const BuildOptions& options, const std::vector<Material>& units);

/// Where one unit's time went (wall seconds), for `dtb gen --timings`.
struct UnitTiming {
  Material unit;              // the unit's first material
  std::uint64_t positions = 0;  // of both tables
  int rounds = 0;
  SolvePhases solve;
  double write = 0;
};

/// The unit whose split between first pass and propagation a kings-only
/// unit m's progress follows: one king fewer on the stronger side (either
/// colour order names it). nullopt for a unit with men or without a smaller
/// kings-only unit.
std::optional<Material> split_sibling(const Material& m);

/// The progress work of a position's first pass in m's solve
/// (SolveOptions::first_pass_work): for a kings-only unit, the split
/// measured on split_sibling(m) if `built` has it (this run's units first,
/// then those recorded by earlier runs, phases_sidecar.h), within a quarter
/// to three quarters; else kFirstPassWork.
std::uint64_t first_pass_work_for(const Material& m, const std::vector<UnitTiming>& built);

struct BuildSummary {
  int tables_built = 0;
  int tables_reused = 0;
  std::uint64_t positions_solved = 0;  // White-to-move positions of the tables built
  double solve_seconds = 0;            // time spent solving (excludes loading and writing)
  double write_seconds = 0;            // time spent compressing and writing
  double total_seconds = 0;
  std::vector<std::string> notes;      // rebuilt damaged tables, removed leftovers
  std::vector<MaterialStats> tables;   // every table built, in build order
  MemoryPlan memory;
  std::vector<UnitTiming> units;       // every unit solved, in build order
};

enum class BuildStatus { Ok, Interrupted, Failed };

/// The units to build for `options`, in build order (each unit: M first).
std::vector<Material> units_to_build(const BuildOptions& options);

/// How the generator writes a table of kind `kind` of m (every knob pinned:
/// the bytes are promised run after run; table_builder.cpp says why each).
WriteOptions generator_write_options(const Material& m, TableKind kind, int threads);

/// Write the tables of a solved unit into `dir` (as `dtb gen` does), with
/// the OpenMP thread count in force: `.wdl`, and `.mtc` if it has MTC values.
/// `file_written(positions)`, if set, is called (from any thread) as each
/// file is in place, with the positions of its table.
TableError write_unit_tables(const std::string& dir, const UnitSolution& solution,
                             const std::function<void(std::uint64_t positions)>& file_written = {});

/// Build every missing table of `options` onto disk.
BuildStatus build_tables(const BuildOptions& options, BuildSummary& summary, std::string& error);

class FinishedTables;

/// The steps of build_tables(), for callers that schedule units themselves
/// (cluster/distributed_build.h solves them on many processes): prepare()
/// once, open_finished(), then build() each unit after its dependencies.
class UnitBuilder {
 public:
  UnitBuilder(const BuildOptions& options, BuildSummary& summary);
  ~UnitBuilder();

  /// Make the output directory, remove the leftovers of a killed run and
  /// check every table already there; `missing` gets the units still to
  /// solve, in build order, and summary.memory their plan. Failed (with the
  /// least bound that would do) if the largest of them does not fit.
  BuildStatus prepare(std::vector<Material>& missing, std::string& error);

  /// Read finished tables from the output directory through a block cache
  /// of `cache_bytes`, keeping up to `resident_bytes` of solved tables.
  BuildStatus open_finished(std::uint64_t cache_bytes, std::uint64_t resident_bytes, std::string& error);

  /// Solve unit `m` (its dependencies finished in the output directory) and
  /// write its tables; `remaining`: the units this builder solves later, in
  /// order (solved tables they read stay resident).
  BuildStatus build(const Material& m, const std::vector<Material>& remaining, std::string& error);

  /// Write the tables of unit `m`, solved elsewhere (by parts on other
  /// processes, cluster/), as build() writes its own: files, statistics
  /// sidecars, the summary; kept resident for `remaining` if open_finished().
  BuildStatus write_solved(const Material& m, UnitSolution& solution, const std::vector<Material>& remaining,
                           std::string& error);

  /// The finished tables (after open_finished()): what a part of a unit
  /// solved by this process reads (solver/unit_solver.h, solve_slices).
  const FinishedValues& finished() const;

  /// The progress bar (made by prepare(); enabled by options.show_progress).
  ProgressBar& progress() { return *progress_; }
  /// The progress work of solving unit `m` (what build() advances the bar by).
  static std::uint64_t solve_work(const Material& m);
  /// Work reported to the progress bar as m's unit's files are written.
  static std::uint64_t write_work(const Material& m);
  /// All the progress work of m's unit: solving and writing.
  static std::uint64_t unit_work(const Material& m);
  /// The progress work of a position's first pass in m's solve: first_pass_work_for
  /// over this run's units and the phases recorded in the output directory.
  std::uint64_t first_pass_work(const Material& m) const;

 private:
  BuildStatus interrupted(std::string& error);
  /// Progress work of writing a position of m's unit (its `.wdl`, and its `.mtc` if built).
  static std::uint64_t write_weight(const Material& m);
  std::uint64_t planned_work(const std::vector<Material>& units) const;
  std::vector<std::string> table_paths(const Material& t) const;
  bool present_on_disk(const Material& t) const;
  bool check_present(const Material& m);
  bool record(const Material& m, const UnitValues& values, const MtcValues* mtc, std::string& error);
  bool record(const Material& m, const UnitValues& values, const MtcReader* mtc, std::string& error);
  BuildStatus record_present(std::string& error);
  void record_phases(const Material& m, const UnitSolution& solution);

  const BuildOptions& options_;
  BuildSummary& summary_;
  std::unique_ptr<ProgressBar> progress_;
  std::unique_ptr<FinishedTables> finished_;
  std::vector<Material> unrecorded_;  // finished tables whose sidecars are missing or stale
};

}  // namespace dtb::gen
