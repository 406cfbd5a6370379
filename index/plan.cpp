// Build plan figures: materials and positions per piece count, resource estimates.
#include "index/plan.h"

#include "index/position_index.h"

namespace dtb {

std::vector<PieceCountSummary> summarize_by_piece_count(int max_pieces) {
  std::vector<PieceCountSummary> out;
  for (int n = 2; n <= max_pieces; ++n) out.push_back({n, 0, 0});
  for (const Material& m : materials_in_build_order(max_pieces)) {
    PieceCountSummary& s = out[static_cast<std::size_t>(m.pieces() - 2)];
    ++s.materials;
    s.positions += 2 * PositionIndex(m).size();  // White and Black to move
  }
  return out;
}

std::uint64_t unit_positions(const std::vector<Material>& unit) {
  std::uint64_t total = 0;
  for (const Material& m : unit) total += PositionIndex(m).size();
  return total;
}

}  // namespace dtb
