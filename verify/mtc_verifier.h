// `dtb verify` of `.mtc` tables (moves to conversion): every stored
// MTC re-derived forwards from the moves, in the same pass as the unit's
// WDL values (verifier.cpp, UnitChecker::check_mtc_with_levels).
//
// For every position of the unit that is not a draw and need not capture
// (the other positions are don't-care on disk), with the cost of a move
// being 1 for a conversion (a man move; captures do not occur here) and
// 1 + MTC(position reached) for a king move (MTC 1 if that position must
// capture):
//   - a win: the stored MTC equals the least cost among the moves that keep
//     the win;
//   - a loss: it equals the greatest cost among all moves, 0 with no move.
// Why this is enough. Along the winner's line the MTC strictly decreases
// (the least-cost move reaches a loss of MTC - 1, whose every move reaches a
// win of MTC - 2 at most, ...), so within MTC plies a conversion happens, and
// there the game leaves the level for values verified before. A cycle of
// false wins cannot satisfy these equations: a depth that strictly
// decreases along it cannot return to where it started. So the MTC check
// also proves every win and loss of the level well-founded on its own.
#pragma once

#include <string>

#include "index/material.h"

namespace dtb::gen {

/// Whether `dir` holds a `.mtc` table of m.
bool has_mtc_table(const std::string& dir, const Material& m);

}  // namespace dtb::gen
