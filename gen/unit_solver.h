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
// the end is a draw. The level's values then go to the unit's packed values
// (unit_values.h) and its working state is dropped. The WDL fixed point is
// unique, so the values (and so the table bytes) depend neither on thread
// count or scheduling nor on solving by levels rather than whole units.
#pragma once

#include <cstdint>
#include <vector>

#include <memory>
#include <string>

#include "gen/finished_values.h"
#include "gen/progress_bar.h"
#include "gen/unit_values.h"
#include "index/material.h"

namespace dtb::gen {

/// Wall seconds of each phase of one solve, for `dtb gen --timings` (where the time goes).
struct SolvePhases {
  double allocate = 0, first_pass = 0, propagate = 0, finalize = 0;
};

struct UnitSolution {
  std::vector<Material> materials;                   // the unit: M (and reversed(M))
  std::vector<std::unique_ptr<UnitValues>> values;   // per material
  int levels = 0;                                    // levels of slices solved
  int rounds = 0;                                    // most propagation rounds in one level
  SolvePhases seconds;
  std::string error;                                 // why a solve failed
};

enum class SolveStatus { Ok, Interrupted, Failed };

/// Solve the unit of `m` (m and reversed(m)). Every material reachable by a
/// capture or a promotion must be in `finished`. Uses the OpenMP thread count
/// in force. Polls interrupt_requested(); `progress` may be null. Work
/// reported to `progress`: 2 units per position of the unit. Failed (with
/// out.error) if a finished value could not be read.
SolveStatus solve_unit(const Material& m, const FinishedValues& finished, ProgressBar* progress,
                       UnitSolution& out);


/// The materials of m's unit, m first.
std::vector<Material> unit_of(const Material& m);

}  // namespace dtb::gen
