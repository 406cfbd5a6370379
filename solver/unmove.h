// Predecessor ("un-move") generation for retrograde propagation.
//
// Given a position `after` (someone to move), list every position `before`,
// with the other side to move, from which a quiet KING move leads to
// `after`: the king un-slides, it came from any square along a diagonal over
// empty squares (the square it left is empty in `after`). Those are exactly
// the moves inside one level of a unit (slice_order.h): man moves, captures
// and promotions leave it, so they are never undone; the solver looks their
// values up forwards instead.
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

/// Every `before`, king by king: start(king) ahead of the un-moves of the
/// mover's king on `king` (a bitboard of one square of `after`), then
/// visit(before, from) for each square `from` (a bitboard) it came from.
template <class Start, class Visit>
void for_each_king_unmove(const Position& after, Start&& start, Visit&& visit) {
  const Color mover = opposite(after.side);
  const Bitboard empty = after.empty();
  const Bitboard own = after.pieces(mover);
  Position before = after;
  before.side = mover;
  Bitboard& moved = mover == Color::White ? before.white : before.black;
  Bitboard kings = after.kings_of(mover);
  while (kings) {
    const int at = pop_lsb(kings);
    const Bitboard at_bb = Bitboard{1} << at;
    start(at_bb);
    for (int d : kDirections) {
      Bitboard from_bb = shift(at_bb, d) & empty;
      while (from_bb) {
        moved = own ^ at_bb ^ from_bb;
        before.kings = after.kings ^ at_bb ^ from_bb;
        visit(static_cast<const Position&>(before), from_bb);
        from_bb = shift(from_bb, d) & empty;
      }
    }
  }
}

template <class Visit>
void for_each_king_predecessor(const Position& after, Visit&& visit) {
  for_each_king_unmove(after, [](Bitboard) {}, [&](const Position& before, Bitboard) { visit(before); });
}

}  // namespace dtb::gen
