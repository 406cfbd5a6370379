// A position: who stands where, and who is to move.
//
// Three bitboards in the padded layout of board.h: the white pieces, the
// black pieces, and which of those pieces are kings. This is the form the move
// generator, the index and the probe library all exchange.
#pragma once

#include <cstdint>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

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
#if defined(__SSE4_1__)
  // The solver reverses a position for every lookup it makes, a tenth of its
  // instructions with three scalar rotate_bb. Here white and black are
  // rotated together in one vector: the bits of each byte reversed by a
  // nibble table (pshufb), then all 16 bytes reversed, which also swaps the
  // two words: black's rotation lands where white was and white's where
  // black was, as the colour swap wants. (tests/rules: equal to rotate_bb.)
  const __m128i nibble = _mm_set1_epi8(0x0F);
  const __m128i reversed_nibbles = _mm_setr_epi8(0x0, 0x8, 0x4, 0xC, 0x2, 0xA, 0x6, 0xE, 0x1, 0x9, 0x5, 0xD, 0x3, 0xB,
                                                 0x7, 0xF);
  const __m128i all_bytes_reversed = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m128i v = _mm_set_epi64x(static_cast<long long>(p.black), static_cast<long long>(p.white));
  const __m128i low = _mm_shuffle_epi8(reversed_nibbles, _mm_and_si128(v, nibble));
  const __m128i high = _mm_shuffle_epi8(reversed_nibbles, _mm_and_si128(_mm_srli_epi16(v, 4), nibble));
  const __m128i bytes = _mm_or_si128(_mm_slli_epi16(low, 4), high);
  const __m128i rotated = _mm_srli_epi64(_mm_shuffle_epi8(bytes, all_bytes_reversed), 64 - kBits);
  const auto white = static_cast<Bitboard>(_mm_cvtsi128_si64(rotated));
  const auto black = static_cast<Bitboard>(_mm_extract_epi64(rotated, 1));
  return Position{white, black, rotate_bb(p.kings), opposite(p.side)};
#else
  return Position{rotate_bb(p.black), rotate_bb(p.white), rotate_bb(p.kings), opposite(p.side)};
#endif
}

/// The promotion row of a colour's men (where they become kings).
constexpr Bitboard promotion_row(Color c) {
  return c == Color::White ? kWhitePromotionRow : kBlackPromotionRow;
}

}  // namespace dtb
