// Predecessor ("un-move") generation for retrograde propagation.
//
// Given a position `after` (someone to move), list every position `before`,
// with the other side to move, from which a QUIET, non-promoting move leads
// to `after`. Those are exactly the moves that stay inside a build unit:
// captures and promotions change the material, so they are never undone here.
//
//   - a king un-slides: it came from any square along a diagonal over empty
//     squares (the square it left is empty in `after`);
//   - a man un-steps: it came from the square diagonally behind it. A man in
//     `after` did not promote on that move, so every man may be undone.
//
// `before` is not checked for a capture: if the side to move there must
// capture, the quiet move was illegal. The solver never needs that check,
// because such positions were decided in its first pass and ignore updates.
#pragma once

#include <array>

#include "rules/board.h"
#include "rules/position.h"

namespace dtb::gen {

/// Directions a colour's men come FROM when they step: the reverse of forward.
constexpr std::array<int, 2> backward_directions(Color c) {
  return c == Color::White ? std::array<int, 2>{kDownLeft, kDownRight}
                           : std::array<int, 2>{kUpLeft, kUpRight};
}

template <class Visit>
void for_each_quiet_predecessor(const Position& after, Visit&& visit) {
  const Color mover = opposite(after.side);
  const Bitboard empty = after.empty();
  const Bitboard own = after.pieces(mover);
  Position before = after;
  before.side = mover;
  Bitboard& moved = mover == Color::White ? before.white : before.black;

  // Men: the origin is one step backwards and must be empty now.
  for (int d : backward_directions(mover)) {
    Bitboard origins = shift(after.men_of(mover), d) & empty;
    while (origins) {
      const int from = pop_lsb(origins);
      moved = own ^ (Bitboard{1} << from) ^ (Bitboard{1} << (from - d));
      visit(static_cast<const Position&>(before));
    }
  }
  // Kings: slide back over empty squares in each direction.
  Bitboard kings = after.kings_of(mover);
  while (kings) {
    const int at = pop_lsb(kings);
    const Bitboard at_bb = Bitboard{1} << at;
    for (int d : kDirections) {
      Bitboard from_bb = shift(at_bb, d) & empty;
      while (from_bb) {
        moved = own ^ at_bb ^ from_bb;
        before.kings = after.kings ^ at_bb ^ from_bb;
        visit(static_cast<const Position&>(before));
        from_bb = shift(from_bb, d) & empty;
      }
    }
  }
  before.kings = after.kings;
}

}  // namespace dtb::gen
