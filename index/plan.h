// What a build up to N pieces involves: how many materials and positions per
// piece count, and an estimate of the generator's memory (and time, once a
// rate is known). Used by `dtb plan`; the generator may refine the model.
#pragma once

#include <cstdint>
#include <optional>
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

/// The generator's resource model. The lead's first estimate: one byte per
/// position of the unit being solved plus a fixed overhead; the generator
/// helper replaces these with measured values.
struct GeneratorCostModel {
  double bytes_per_position = 1.0;
  std::uint64_t overhead_bytes = std::uint64_t{64} << 20;  // code, move lists, buffers
  std::optional<double> positions_per_second;              // unknown until measured
};

std::uint64_t estimated_memory_bytes(std::uint64_t positions, const GeneratorCostModel& model);
/// Seconds to solve `positions`, if the model knows a rate.
std::optional<double> estimated_seconds(std::uint64_t positions, const GeneratorCostModel& model);

}  // namespace dtb
