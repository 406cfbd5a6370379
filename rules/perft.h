// Perft: the number of leaf positions of the legal move tree to a depth.
// The standard check of a move generator against published figures.
#pragma once

#include <cstdint>

#include "rules/position.h"

namespace dtb {

/// Leaf count at `depth` plies (depth 0 = 1). Uses bulk counting at the last
/// ply: the leaves below a depth-1 node are its number of legal moves.
std::uint64_t perft(const Position& pos, int depth);

/// Perft that counts a capture once per path (see generate_move_paths), the
/// convention of some published tables. No bulk counting: it is a check.
std::uint64_t perft_paths(const Position& pos, int depth);

}  // namespace dtb
