// A position: who stands where, and who is to move.
//
// Three bitboards in the padded layout of board.h: the white pieces, the
// black pieces, and which of those pieces are kings. This is the form the move
// generator, the index and the probe library all exchange.
#pragma once

#include <cstdint>

#include "rules/board.h"

namespace dtb {

enum class Color : std::uint8_t { White = 0, Black = 1 };

constexpr Color opposite(Color c) { return c == Color::White ? Color::Black : Color::White; }

struct Position {
  Bitboard white = 0;
  Bitboard black = 0;
  Bitboard kings = 0;  // subset of white | black
  Color side = Color::White;

  constexpr Bitboard pieces(Color c) const { return c == Color::White ? white : black; }
  constexpr Bitboard kings_of(Color c) const { return pieces(c) & kings; }
  constexpr Bitboard men_of(Color c) const { return pieces(c) & ~kings; }
  constexpr Bitboard occupied() const { return white | black; }
  constexpr Bitboard empty() const { return kBoardMask & ~(white | black); }

  friend constexpr bool operator==(const Position&, const Position&) = default;
};

/// The initial position: black men on 1-20, white men on 31-50, White to move.
constexpr Position start_position() {
  return Position{squares_bb(31, 50), squares_bb(1, 20), 0, Color::White};
}

/// Colour reversal: rotate the board by 180 degrees and swap the colours, so a
/// position with Black to move becomes an equivalent one with White to move.
/// The game value for the side to move is unchanged. It is an involution.
inline Position colour_reversed(const Position& p) {
  return Position{rotate_bb(p.black), rotate_bb(p.white), rotate_bb(p.kings), opposite(p.side)};
}

/// The promotion row of a colour's men (where they become kings).
constexpr Bitboard promotion_row(Color c) {
  return c == Color::White ? kWhitePromotionRow : kBlackPromotionRow;
}

}  // namespace dtb
