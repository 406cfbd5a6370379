// What a build up to N pieces involves: how many materials and positions per
// piece count, and an estimate of the generator's memory (and time, once a
// rate is known). Used by `dtb plan`; the generator may refine the model.
#pragma once

#include <cstdint>
#include <vector>

#include "index/material.h"

namespace dtb {

struct PieceCountSummary {
  int pieces = 0;
  std::uint64_t materials = 0;
  /// Positions with either side to move: 2 x the sum of the table sizes (the
  /// figures of RULES.md).
  std::uint64_t positions = 0;
};

/// One line per piece count 2..max_pieces.
std::vector<PieceCountSummary> summarize_by_piece_count(int max_pieces);

/// Positions of a build unit (M and reversed(M), once if symmetric), White to
/// move in each table.
std::uint64_t unit_positions(const std::vector<Material>& unit);

}  // namespace dtb
