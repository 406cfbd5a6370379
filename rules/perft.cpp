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

std::uint64_t perft_paths(const Position& pos, int depth) {
  MoveList list;
  generate_move_paths(pos, list);
  if (depth <= 1) return depth <= 0 ? 1 : static_cast<std::uint64_t>(list.size);
  std::uint64_t total = 0;
  for (const Move& m : list) total += perft_paths(make_move(pos, m), depth - 1);
  return total;
}

}  // namespace dtb
