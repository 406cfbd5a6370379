// Colour reversal at the index level.
//
// Tables hold White to move only. A position with Black to move is the
// colour reversal (180-degree rotation, colours swapped; rules/position.h) of
// a position of the reversed material with White to move, with the same value
// for the side to move. These helpers give the table address of any position
// and map table entries back to positions of either side to move.
#pragma once

#include <cstdint>

#include "index/material.h"
#include "index/position_index.h"
#include "rules/position.h"

namespace dtb {

/// The White-to-move form of a position: itself, or its colour reversal.
inline Position white_to_move_form(const Position& p) {
  return p.side == Color::White ? p : colour_reversed(p);
}

/// The material of the table that holds `p` (the reversed material when Black
/// is to move).
inline Material table_material(const Position& p) { return material_of(white_to_move_form(p)); }

/// The index of `p` (either side to move) in `table`, which must be the
/// PositionIndex of table_material(p).
inline std::uint64_t table_rank(const PositionIndex& table, const Position& p) {
  return table.rank(white_to_move_form(p));
}

/// The position at `index` of `table`, presented with `side` to move: for
/// Black, the colour reversal of the table's White-to-move position, so its
/// material is table.material().reversed().
inline Position table_unrank(const PositionIndex& table, std::uint64_t index, Color side) {
  const Position p = table.unrank(index);
  return side == Color::White ? p : colour_reversed(p);
}

}  // namespace dtb
