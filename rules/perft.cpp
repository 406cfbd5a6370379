#include "rules/perft.h"

#include "rules/movegen.h"

namespace dtb {

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return static_cast<std::uint64_t>(count_moves(pos));
  MoveList list;
  generate_moves(pos, list);
  std::uint64_t total = 0;
  for (const Move& m : list) total += perft(make_move(pos, m), depth - 1);
  return total;
}

}  // namespace dtb
