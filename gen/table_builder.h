// `dtb gen`: build every missing WDL table up to N pieces, in build order.
//
// A rerun resumes: a table already on disk is opened and checked (header and
// every checksum) before it is trusted, then loaded into the WdlStore; a
// missing or damaged one is (re)built. Tables are written to a temporary file
// and renamed into place when complete (compress/table_file.h), so an
// interrupted run never leaves a broken table; leftover temporary files of a
// killed run are removed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "gen/table_stats.h"
#include "gen/unit_solver.h"
#include "gen/wdl_store.h"
#include "index/material.h"

namespace dtb::gen {

struct BuildOptions {
  int max_pieces = 0;
  std::string out_dir = "tables";
  /// Build only the unit of this material (and whatever it depends on).
  std::optional<Material> only;
  bool show_progress = false;
};

/// Where one unit's time went (wall seconds), for `dtb gen --timings`.
struct UnitTiming {
  Material unit;              // the unit's first material
  std::uint64_t positions = 0;  // of both tables
  int rounds = 0;
  SolvePhases solve;
  double write = 0;
};

struct BuildSummary {
  int tables_built = 0;
  int tables_reused = 0;
  std::uint64_t positions_solved = 0;  // White-to-move positions of the tables built
  double solve_seconds = 0;            // time spent solving (excludes loading and writing)
  double write_seconds = 0;            // time spent compressing and writing
  double total_seconds = 0;
  std::vector<std::string> notes;      // rebuilt damaged tables, removed leftovers
  std::vector<MaterialStats> tables;   // every table built or loaded, in build order
  std::vector<UnitTiming> units;       // every unit solved, in build order
};

enum class BuildStatus { Ok, Interrupted, Failed };

/// The units to build for `options`, in build order (each unit: M first).
std::vector<Material> units_to_build(const BuildOptions& options);

/// Write the tables of a solved unit into `dir` (as `dtb gen` does), with
/// the OpenMP thread count in force.
TableError write_unit_tables(const std::string& dir, const UnitSolution& solution);

/// Build (or load) every table of `options` into `store` and onto disk.
BuildStatus build_tables(const BuildOptions& options, WdlStore& store, BuildSummary& summary,
                         std::string& error);

}  // namespace dtb::gen
