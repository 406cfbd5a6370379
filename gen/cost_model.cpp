#include "gen/cost_model.h"

namespace dtb::gen {

std::uint64_t store_bytes(int max_pieces) {
  std::uint64_t positions = 0;
  for (const PieceCountSummary& s : summarize_by_piece_count(max_pieces)) positions += s.positions / 2;
  return positions / 4;  // 2 bits each
}

}  // namespace dtb::gen
