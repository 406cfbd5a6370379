// `dtb verify` of `.mtc` tables (moves to conversion): every stored
// MTC re-derived forwards from the moves, after the unit's WDL values have
// passed the verifier's own checks (verifier.h).
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

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "solver/finished_values.h"
#include "support/progress_bar.h"
#include "solver/unit_values.h"
#include "index/material.h"

namespace dtb::gen {

/// Whether `dir` holds a `.mtc` table of m.
bool has_mtc_table(const std::string& dir, const Material& m);

/// Check the `.mtc` tables of one unit (materials[k] with its verified WDL
/// values values[k], capture positions resolved; `finished` for the
/// promotions). False with a message naming the table and the first wrong
/// position (a FEN) on the first failure, a missing or damaged file included.
/// `progress` (may be null) advances by one per position checked.
bool verify_unit_mtc(const std::string& dir, const std::vector<Material>& materials,
                     const std::vector<const UnitValues*>& values, const FinishedValues& finished,
                     ProgressBar* progress, std::string& failure);

/// The same check of MTC values held in memory (mtc[k]: a byte a position of
/// materials[k], in index order): a unit solved elsewhere (cluster/), checked
/// before its tables are written. The failure names the table, level, slice
/// and position.
bool verify_unit_mtc_values(const std::vector<Material>& materials, const std::vector<const UnitValues*>& values,
                            const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                            ProgressBar* progress, std::string& failure);

/// The same check of one part of one level only (part[t]: its slices in
/// table t, sorted, closed under king moves: slice_order.h).
bool verify_part_mtc_values(const std::vector<Material>& materials, const std::vector<std::vector<std::uint32_t>>& part,
                            const std::vector<const UnitValues*>& values,
                            const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                            std::string& failure);

}  // namespace dtb::gen
