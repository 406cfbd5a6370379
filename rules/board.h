// Board geometry of international draughts (FMJD rules, articles 2.1-2.8).
//
// The 50 dark squares are numbered 1..50 row by row from the top (Black's side):
// row 1 holds squares 1-5 in columns 2,4,6,8,10, row 2 holds 6-10 in columns
// 1,3,5,7,9, and so on; rows alternate between the two patterns.
//
// Bitboard layout ("padded" layout). Square s (1..50) lives on bit
//
//     bit(s) = (s - 1) + (s - 1) / 10
//
// i.e. after every pair of rows (10 squares) one unused "ghost" bit is
// inserted (bits 10, 21, 32, 43). With that padding every diagonal step is
// the same constant shift everywhere on the board:
//
//     up-left  (towards row 1, column - 1)  : bit - 6
//     up-right (towards row 1, column + 1)  : bit - 5
//     down-left                              : bit + 5
//     down-right                             : bit + 6
//
// A step that would leave the board through the left or right edge lands on
// a ghost bit, a step through the top goes negative (shifted out) and a step
// through the bottom lands on bits 54..59. Masking with kBoardMask after a
// shift therefore removes every off-board step at once: no per-square tables
// are needed for men moves or for the rays of flying kings.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace dtb {

using Bitboard = std::uint64_t;

inline constexpr int kSquares = 50;
inline constexpr int kBits = 54;  // bits 0..53 are used, 4 of them ghosts

/// Bit index of FMJD square s (1..50).
constexpr int bit_of_square(int s) { return (s - 1) + (s - 1) / 10; }

/// FMJD square number (1..50) of a bit index, or 0 for a ghost / off-board bit.
constexpr int square_of_bit(int b) {
  if (b < 0 || b >= kBits || b % 11 == 10) return 0;
  return b - b / 11 + 1;
}

constexpr Bitboard square_bb(int s) { return Bitboard{1} << bit_of_square(s); }

constexpr Bitboard squares_bb(int first, int last) {
  Bitboard b = 0;
  for (int s = first; s <= last; ++s) b |= square_bb(s);
  return b;
}

inline constexpr Bitboard kBoardMask = squares_bb(1, 50);
/// The padded layout's unused bits below bit kBits (10, 21, 32, 43). The
/// index counts them as blocked squares, which turns a padded bit into a
/// dense position (index/binomial.h).
inline constexpr Bitboard kGhostBits = ~kBoardMask & ((Bitboard{1} << kBits) - 1);
static_assert(kGhostBits == (Bitboard{1} << 10 | Bitboard{1} << 21 | Bitboard{1} << 32 | Bitboard{1} << 43));
/// White men move up and promote on row 1 (squares 1-5); black men on row 10.
inline constexpr Bitboard kWhitePromotionRow = squares_bb(1, 5);
inline constexpr Bitboard kBlackPromotionRow = squares_bb(46, 50);

/// The four diagonal directions, as bit shifts in the padded layout.
enum Direction : int { kUpLeft = -6, kUpRight = -5, kDownLeft = 5, kDownRight = 6 };
inline constexpr std::array<int, 4> kDirections = {kUpLeft, kUpRight, kDownLeft, kDownRight};

/// Shift a whole bitboard one step in direction d, dropping off-board squares.
constexpr Bitboard shift(Bitboard b, int d) {
  return (d > 0 ? (b << d) : (b >> -d)) & kBoardMask;
}

/// Row 1..10 and column 1..10 of a square, as in RULES.md (r + c is odd).
constexpr int row_of_square(int s) { return (s - 1) / 5 + 1; }
constexpr int column_of_square(int s) {
  const int r = row_of_square(s), k = (s - 1) % 5;
  return (r % 2 == 1) ? 2 * k + 2 : 2 * k + 1;
}

/// 180-degree rotation: square s <-> 51 - s. Used for colour reversal.
constexpr int rotate_square(int s) { return kSquares + 1 - s; }

/// Rotate a bitboard by 180 degrees. In the padded layout the rotation of bit
/// b is 53 - b (the ghosts at 10,21,32,43 map onto each other), so it is a
/// bit reversal of the 64-bit word followed by a shift.
inline Bitboard rotate_bb(Bitboard b) {
  // Reverse the bits within each byte, then the bytes (one instruction):
  // half the steps of a bit reversal by halves. The solver reverses three
  // boards for every position it looks up.
  b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
  b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
  b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
  return __builtin_bswap64(b) >> (64 - kBits);
}

/// Dense layout: square s on bit s-1 (50 bits, no ghosts). The index code
/// ranks piece sets in this layout.
inline std::uint64_t to_dense(Bitboard b) {
  return (b & 0x3FFULL) | ((b >> 1) & (0x3FFULL << 10)) | ((b >> 2) & (0x3FFULL << 20)) |
         ((b >> 3) & (0x3FFULL << 30)) | ((b >> 4) & (0x3FFULL << 40));
}
inline Bitboard from_dense(std::uint64_t d) {
  return (d & 0x3FFULL) | ((d & (0x3FFULL << 10)) << 1) | ((d & (0x3FFULL << 20)) << 2) |
         ((d & (0x3FFULL << 30)) << 3) | ((d & (0x3FFULL << 40)) << 4);
}

inline int popcount(Bitboard b) { return std::popcount(b); }
inline int lsb(Bitboard b) { return std::countr_zero(b); }
/// Remove and return the lowest set bit index.
inline int pop_lsb(Bitboard& b) {
  const int i = std::countr_zero(b);
  b &= b - 1;
  return i;
}

static_assert(bit_of_square(1) == 0 && bit_of_square(10) == 9 && bit_of_square(11) == 11);
static_assert(bit_of_square(50) == 53);
static_assert(square_of_bit(10) == 0 && square_of_bit(11) == 11 && square_of_bit(53) == 50);
static_assert(std::popcount(kBoardMask) == kSquares);
static_assert(row_of_square(46) == 10 && column_of_square(46) == 1 && column_of_square(5) == 10);

}  // namespace dtb
