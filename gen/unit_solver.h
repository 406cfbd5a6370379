// The fast solver: retrograde propagation with move counters over one build
// unit {M, reversed(M)} (just {M} when M is its own reversal).
//
// Why a unit: tables hold White to move only. A quiet move of M with White to
// move reaches Black to move in M, which is White to move in reversed(M)
// (colour_reversed). So the quiet moves of M and reversed(M) form one closed
// graph, and every other move (capture, promotion) leaves it for a finished
// table in the WdlStore.
//
// Pass 1 (parallel, one forward generation per position):
//   - a position that must capture is final: all its moves leave the unit;
//   - no legal move: loss (RULES 7.2);
//   - a promotion to a lost position for the opponent: win;
//   - otherwise: a counter of in-unit moves, and a flag if some promotion
//     draws. A counter of zero resolves at once (draw if flagged, else loss).
// Pass 2 (parallel, round by round): each decided win/loss q is undone into
// its quiet predecessors p (unmove.h). q lost for its mover: p wins. q won:
// p loses one move; when p has none left it is lost, or drawn if flagged.
// Counters are updated with atomic compare-and-swap. Whatever is undecided at
// the end is a draw. The WDL fixed point is unique, so the values (and so the
// table bytes) do not depend on thread count or scheduling.
#pragma once

#include <cstdint>
#include <vector>

#include "gen/large_array.h"
#include "gen/progress_bar.h"
#include "gen/wdl_store.h"
#include "index/material.h"

namespace dtb::gen {

/// Wall seconds of each phase of one solve, for `dtb gen --timings` (where the time goes).
struct SolvePhases {
  double allocate = 0, first_pass = 0, propagate = 0, finalize = 0;
};

struct UnitSolution {
  std::vector<Material> materials;                 // the unit: M (and reversed(M))
  std::vector<LargeArray<std::uint8_t>> values;  // per material: WDL | kCaptureFlag
  int rounds = 0;                                  // propagation rounds (longest forced line)
  SolvePhases seconds;
};

enum class SolveStatus { Ok, Interrupted };

/// Solve the unit of `m` (m and reversed(m)). Every table reachable by a
/// capture or a promotion must be in `store`. Uses the OpenMP thread count in
/// force. Polls interrupt_requested(); `progress` may be null. Work reported
/// to `progress`: 2 units per position of the unit.
SolveStatus solve_unit(const Material& m, const WdlStore& store, ProgressBar* progress,
                       UnitSolution& out);

/// The materials of m's unit, m first.
std::vector<Material> unit_of(const Material& m);

}  // namespace dtb::gen
