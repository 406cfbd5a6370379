// The fast solver: retrograde propagation with move counters over one build
// unit {M, reversed(M)} (just {M} when M is its own reversal), one level of
// slices at a time (slice_order.h).
//
// Why a unit: tables hold White to move only. A quiet move of M with White to
// move reaches Black to move in M, which is White to move in reversed(M)
// (colour_reversed). Why levels: inside a level only kings move; a man move
// leads to the next level (solved before), a capture or a promotion to a
// finished material (`finished`). So for each level, from the most advanced:
//
// Pass 1 (parallel, one forward generation per position):
//   - a position that must capture is final: all its moves leave the level;
//   - no legal move: loss (RULES 7.2);
//   - a man move or promotion to a lost position for the opponent: win;
//   - otherwise: a counter of king moves, and a flag if some man move or
//     promotion draws. A counter of zero resolves at once (draw if flagged,
//     else loss).
// Pass 2 (parallel, round by round): each decided win/loss q is undone into
// its king-move predecessors p (unmove.h). q lost for its mover: p wins. q
// won: p loses one move; when p has none left it is lost, or drawn if flagged.
// Counters are updated with atomic compare-and-swap. Whatever is undecided at
// the end is a draw. (A kings-only unit too large for the memory bound keeps
// no counters: a loss is found by checking every move instead, in the same
// round: NibbleStates, level_states.h.)
//
// Rounds are plies to conversion (MTC). Every move that leaves a
// level is a conversion (a capture or a man move), so a position's MTC
// depends on nothing outside its level but the WDL values there. Pass 1
// puts the positions without a legal move (MTC 0) in round 0 and every
// other position it decides (it converts at once: MTC 1) in round 1; round
// r propagates the positions of MTC r and so decides exactly those of MTC
// r + 1: a win through its least-MTC losing successor (the first one
// propagated), a loss when its last winning successor, the deepest, is
// propagated (its losing conversions count 1, less than any king move's
// 1 + MTC >= 2). So the round in which a position is propagated is its MTC,
// and `SolveOptions::mtc` only records it: the same solver with a second
// value policy; the WDL values do not change (UnitSolution::rounds is then
// the largest MTC plus one). The level's values then go to the unit's packed values
// (unit_values.h) and its working state is dropped. The WDL fixed point is
// unique, so the values (and so the table bytes) depend neither on thread
// count or scheduling nor on solving by levels rather than whole units.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "solver/exit_distances.h"
#include "solver/finished_values.h"
#include "solver/mtc_values.h"
#include "support/progress_bar.h"
#include "solver/unit_values.h"
#include "index/material.h"

namespace dtb::gen {

/// Wall seconds of each phase of one solve, for `dtb gen --timings` (where the time goes).
struct SolvePhases {
  double allocate = 0, first_pass = 0, propagate = 0, finalize = 0;
};

/// Progress work a position of a unit is worth: its first pass (every
/// position's moves generated and counted) and its share of the propagation
/// (where only decided positions are un-moved, propagation_forecast.h).
/// About two to one in time (kFirstPassWork of kSolveWorkPerPosition): the
/// 2-6 build spent 2,970 s in first passes and 1,797 s propagating
/// (docs/data/gen-2-6-timings.tsv). Counted one to one, the bar ran ahead in
/// first passes and stalled in propagation. Kings-only units vary far more,
/// with their share of decided positions: propagation took 0.3x the first
/// pass of four kings against three (96 % drawn) and 4x that of five kings
/// against one, so a builder may set another split (SolveOptions::first_pass_work).
constexpr std::uint64_t kSolveWorkPerPosition = 12, kFirstPassWork = 8;

struct SolveOptions {
  /// Also record each decided position's MTC (MtcValues, one byte a position).
  bool mtc = false;
  /// Where to save the unit between levels, or a one-level unit between
  /// rounds (unit_checkpoints.h), and to resume from if a valid checkpoint
  /// is there; empty: never.
  std::string checkpoint_path;
  /// Save after a level only if this much wall time has passed since the
  /// solve started or last saved (0: after every level). Small units never
  /// pay for it; a 6-piece unit loses at most this much when stopped.
  double checkpoint_seconds = 300;
  /// Kings-only units only: half a byte of working state a position instead
  /// of a byte and a bit (NibbleStates, level_states.h), for the 7-piece
  /// kings-only units that do not fit the memory bound otherwise. The same
  /// values and MTC; slower where positions have many moves.
  bool compact_states = false;
  /// With mtc: keep each table's MTC values in a scratch file in this
  /// directory (mtc_scratch_path) instead of in memory, so that only the
  /// level being solved holds memory; empty: in memory. The files stay
  /// after the solve (for the writer, and for a resumed solve); the caller
  /// removes them.
  std::string mtc_scratch_dir;
  /// Units of more than one level: keep each table's values in a scratch
  /// file in this directory (values_scratch_path: spilled values,
  /// unit_values.h) instead of in memory, so that about one level's values
  /// are resident; empty: in memory. The files stay after the solve (for the
  /// writer, and for a resumed solve); the caller removes them.
  std::string values_scratch_dir;
  /// Progress work of a position's first pass, of kSolveWorkPerPosition (the
  /// rest is its share of the propagation): 1 to kSolveWorkPerPosition - 1.
  std::uint64_t first_pass_work = kFirstPassWork;
  /// Called before each propagation round with its number (0 first), if
  /// set: the tests stop a solve at a chosen round through it.
  std::function<void(int round)> before_round;
  /// Article 6.2, the rule-aware solve (gen/article62_builder.h): with
  /// mtc, and `finished` giving each conversion its 6.2 value from a fresh
  /// count, a position decided in a round past this many plies (it cannot
  /// force its conversion within the count) is a draw in the values the
  /// solve gives, and so in what the unit's lower levels read of it. The
  /// MTC recorded stays the round. 0: off (the theoretical game).
  int article62_plies = 0;
  /// The distance policy (exit_distances.h), for the tables of drawrules/:
  /// a capture or a promotion is valued by `exits`, a man move by the
  /// distances of the level above, and each position's distance (the round
  /// that decides it) goes to UnitSolution::plies; `finished` is not read.
  /// The unit's values are then those of the game `exits` describes. In
  /// memory, for small units: not with mtc, 6.2, checkpoints, spilled values
  /// or compact states.
  const ExitOutcomes* exits = nullptr;
};

struct UnitSolution {
  std::vector<Material> materials;                   // the unit: M (and reversed(M))
  std::vector<std::unique_ptr<UnitValues>> values;   // per material
  std::vector<std::unique_ptr<MtcValues>> mtc;       // per material, with SolveOptions::mtc
  std::vector<std::vector<std::uint16_t>> plies;     // per material, with SolveOptions::exits (0: drawn)
  int levels = 0;                                    // levels of slices solved
  int rounds = 0;                                    // most propagation rounds in one level (largest MTC + 1)
  int resumed_level = -1;                            // the level a checkpoint resumed at, if one did
  int resumed_round = -1;                            // and the round, for a one-level unit's round checkpoint
  SolvePhases seconds;
  std::string error;                                 // why a solve failed
};

enum class SolveStatus { Ok, Interrupted, Failed };

/// Solve the unit of `m` (m and reversed(m)). Every material reachable by a
/// capture or a promotion must be in `finished`. Uses the OpenMP thread count
/// in force. Polls interrupt_requested(); `progress` may be null. Work
/// reported to `progress`: kSolveWorkPerPosition per position of the unit.
/// Failed (with out.error) if a finished value could not be read.
SolveStatus solve_unit(const Material& m, const FinishedValues& finished, ProgressBar* progress,
                       UnitSolution& out, const SolveOptions& options = {});

/// solve_unit with the distance policy (SolveOptions::exits = &exits):
/// no finished values to read.
SolveStatus solve_unit_with_exits(const Material& m, const ExitOutcomes& exits, ProgressBar* progress,
                                  UnitSolution& out, SolveOptions options = {});

/// The work solve_unit reports for m's unit, kSolveWorkPerPosition a position
/// of its tables: what a builder's progress bar plans for it.
std::uint64_t unit_solve_work(const Material& m);

/// One part of one level of m's unit, for a build that spreads a level over
/// many processes (cluster/): solve only `slices[t]` (slices of `level` in
/// table t of the unit, sorted; with each slice, its colour reversal in the
/// other table, so the part is closed under king moves, slice_order.h).
/// `io.values` (and `io.mtc`, for MTC), one per table of the unit, must
/// hold every value of level + 1 that the part's man moves reach and zero
/// at the part's own positions; the part's values are set there. Other
/// positions are neither read nor written. io.rounds: the part's largest MTC + 1.
SolveStatus solve_slices(const Material& m, const FinishedValues& finished, int level,
                         const std::vector<std::vector<std::uint32_t>>& slices, UnitSolution& io);

/// The materials of m's unit, m first.
std::vector<Material> unit_of(const Material& m);

}  // namespace dtb::gen
