// The generator's resource model, for `dtb gen` (its memory check) and
// `dtb plan`: what solving and writing each unit takes under the slice scheme
// (slice_order.h), and what a whole build up to N pieces takes.
//
// Memory of one unit {M, reversed(M)} (solver/unit_solver.h, table_builder.h):
//   - its final values, packed: 2 bits + 1 capture bit a position;
//   - its slice lists: 4 bytes a men configuration;
//   - the working state of its largest level: 1 byte + 1 bit a position
//     (half a byte for a kings-only unit that does not fit otherwise:
//     level_states.h);
//   - the writer: the compressed frames of one table, a sixteenth of its
//     packed size (2 bits a position) at most, and its dictionary's
//     training blocks;
//   - with `dtb gen --mtc`: the MTC values of the level being solved, a
//     byte a position (the unit's are in scratch files: solver/mtc_values.h),
//     and a writer of `.mtc` frames (2 bits a position at most).
// A unit of one level (kings only) makes its values from its states at the
// end, releasing the states batch by batch (unit_solver.cpp), so it needs
// the larger of {working state + a batch or its MTC} and {values + writer},
// not the sum.
// On top, for the whole build: kOverheadBytes (code, stacks, the probe's
// open tables), kMappedPagesBytes (pages of finished tables' files that the
// reader maps, released every so often: finished_tables.h), a block cache
// for finished tables (at least kMinCacheBytes),
// and solved tables kept resident while later units need them
// (finished_tables.h), which only uses what the bound leaves.
//
// Time: measured rates (docs/measurements.md), per thread, assuming the
// solver keeps scaling with threads as it does from one to two (~1.95x).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "index/material.h"

namespace dtb::gen {

inline constexpr std::uint64_t kOverheadBytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kMinCacheBytes = std::uint64_t{16} << 20;
inline constexpr std::uint64_t kMappedPagesBytes = std::uint64_t{32} << 20;
/// What a build needs besides its largest unit, at least.
inline constexpr std::uint64_t kBuildOverheadBytes = kOverheadBytes + kMappedPagesBytes + kMinCacheBytes;

// Measured on the 2-5 piece build (docs/measurements.md): positions solved per second and
// thread.
inline constexpr double kSolvePositionsPerThreadSecond = 3.2e6;
// Positions written per second and thread, and bits per position on disk,
// by piece count: the generator writes 6+ pieces with zstd's optimal parser
// and the compact block table (gen/table_builder.cpp). 2-5: 4.0e7 and 0.182
// (measured). 6: 0.162 measured; the write rate is that of a level-9 build
// (46.2 G positions in 489 s on 2 threads) divided by the 1.7-2.1x the
// optimal parser costs in paired re-encodes: an estimate. 7 and
// more: as 6 (the five-kings-against-two tables: 0.19).
inline double write_positions_per_thread_second(int pieces) { return pieces >= 6 ? 2.5e7 : 4.0e7; }
inline double disk_bits_per_position(int pieces) { return pieces >= 6 ? 0.162 : 0.182; }
// A part of a level on the wire (cluster/slice_task.h): a nibble a position,
// zstd-compressed to 0.14 bytes (measured: the values returned by the parts
// of the 2-5 piece build, mpirun -np 3, README; 0.22 for 2-4); larger tables
// compress at least as well.
inline constexpr double kPartBytesPerPosition = 0.14;
// Positions a thread of rank 0 checks a second before writing a unit solved
// in parts (verify/verifier.h, verify_unit_in_memory): 1.19 times the
// solving rate, their ratio in the 2-5 piece build with mpirun -np 3 (1.16 M
// against 0.98 M positions a second a thread, on the same loaded cores).
inline constexpr double kCheckPositionsPerThreadSecond = 1.19 * kSolvePositionsPerThreadSecond;

/// Where the memory of solving and writing one unit goes (bytes).
struct UnitMemory {
  Material unit;
  std::uint64_t values = 0, slice_lists = 0, level_state = 0, writer = 0, mtc = 0;
  bool one_level = false;  // kings only: values made after the states are released
  bool compact_states = false;  // solved with NibbleStates (SolveOptions::compact_states)
  bool spilled_values = false;  // values in scratch files (SolveOptions::values_scratch_dir)
  std::uint64_t total() const;
  /// The largest of the four parts, named.
  std::string dominant() const;
};
UnitMemory unit_memory(const Material& m, bool with_mtc = false, bool compact_states = false,
                       bool spilled_values = false);
/// The form a build bounded by `budget` solves m in: a byte of working state
/// a position, or, for a kings-only unit that would not fit that way, half a
/// byte (SolveOptions::compact_states); for a unit with men that would not
/// fit, its values spilled to scratch files (SolveOptions::values_scratch_dir).
UnitMemory unit_memory_within(const Material& m, bool with_mtc, std::uint64_t budget);

/// What rank 0 of a distributed build holds of a unit it has solved in
/// parts (cluster/distributed_build.h): the packed values, the slice lists
/// and the writer, and for the check of its levels before writing another
/// set of slice lists and the check's state (as large as a solve's working
/// state: the workers solve, but rank 0 checks).
std::uint64_t coordinator_unit_bytes(const Material& m);

/// One piece count of a build.
struct PieceCountPlan {
  int pieces = 0;
  std::uint64_t positions = 0;  // White to move, all tables
  UnitMemory largest;           // the unit that needs the most memory
  std::uint64_t mtc_scratch = 0;  // with MTC: the largest unit's scratch files (bytes on disk)
  double solve_seconds = 0, write_seconds = 0;
  double disk_bytes = 0;
};

struct BuildPlan {
  std::uint64_t budget = 0;        // the memory bound asked for
  std::uint64_t least_budget = 0;  // the least bound that would do
  std::uint64_t peak = 0;          // largest unit + overhead + minimal cache
  std::vector<PieceCountPlan> counts;
  double seconds() const;
  double disk_bytes() const;
};

/// The plan of a build of every table up to max_pieces with `threads`
/// threads; with_mtc: `dtb gen --mtc` (memory only: the time and disk of
/// the `.mtc` tables are not modelled).
BuildPlan plan_build(int max_pieces, std::uint64_t budget, int threads, bool with_mtc = false);

}  // namespace dtb::gen
