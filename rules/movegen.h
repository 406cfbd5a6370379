// Legal move generation and move making (FMJD articles 3 and 4).
//
// - Men step one square diagonally forward; flying kings slide any distance.
// - Capturing is compulsory and a move must take the maximum number of pieces
//   (4.13); a king counts the same as a man.
// - Turkish strike: jumped pieces stay on the board until the move is over, so
//   each can be jumped once and still blocks; empty squares (the mover's own
//   starting square included) may be crossed and landed on again.
// - A man becomes a king only if its move ends on the far row (4.15).
// - Capture sequences with the same start, end and captured set are one move.
#pragma once

#include <array>
#include <cstdint>

#include "rules/position.h"

namespace dtb {

// No default member initialisers on purpose: a MoveList holds 1024 of them,
// and value-initialising 16 KB per node was 96% of perft's instructions.
// Write `Move{}` (zeroed) or `Move{captured, from, to}`.
struct Move {
  Bitboard captured;  // pieces taken (padded layout); 0 for a quiet move
  std::uint8_t from;  // bit index of the start square
  std::uint8_t to;    // bit index of the end square (may equal from)

  bool is_capture() const { return captured != 0; }
  int from_square() const { return square_of_bit(from); }
  int to_square() const { return square_of_bit(to); }
  friend constexpr bool operator==(const Move&, const Move&) = default;
};

/// A fixed-capacity move list. 1024 is far above any count reachable in play;
/// generation stops adding (and sets `overflow`) rather than write past it.
struct MoveList {
  static constexpr int kCapacity = 1024;
  std::array<Move, kCapacity> moves;  // left uninitialised: only [0, size) is valid
  int size = 0;
  bool overflow = false;

  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
  const Move& operator[](int i) const { return moves[static_cast<std::size_t>(i)]; }
};

/// All legal moves of the side to move.
void generate_moves(const Position& pos, MoveList& list);

/// The same, but a capture that can be played along several paths (same
/// start, end and captured set) is listed once per path. Only for checking
/// the deduplication against published perft figures that count paths.
void generate_move_paths(const Position& pos, MoveList& list);

/// The quiet moves of the side to move: all its legal moves only if it has
/// no capture. For callers that know that already (a table's capture flags),
/// to skip the capture search.
void generate_quiet_moves(const Position& pos, MoveList& list);
/// Whether the side to move has a capture (and so must capture).
bool has_capture(const Position& pos);

/// Number of legal moves (faster than generating quiet moves one by one).
int count_moves(const Position& pos);

/// Number of quiet moves of the kings on `kings` over the `empty` squares:
/// each king's slides along its four rays up to the first occupied square.
/// A slide is one mask and one bit scan per ray, not a square-by-square walk
/// (the solver counts every undecided position's king moves).
int count_king_moves(Bitboard kings, Bitboard empty);

/// The position after a legal move (the side to move changes). Inline: the
/// solver makes a move for every man move and capture it looks up, and a
/// call returns the position through memory, which the caller then reads
/// back whole (a stall on every lookup).
inline Position make_move(const Position& pos, const Move& m) {
  Position p = pos;
  const Bitboard from = Bitboard{1} << m.from, to = Bitboard{1} << m.to;
  Bitboard& mine = pos.side == Color::White ? p.white : p.black;
  Bitboard& theirs = pos.side == Color::White ? p.black : p.white;
  const bool was_king = (pos.kings & from) != 0;
  // Clear first, then set: a king's capture may end on its own start square.
  mine = (mine & ~from) | to;
  theirs &= ~m.captured;
  p.kings &= ~(m.captured | from);
  if (was_king || (to & promotion_row(pos.side))) p.kings |= to;
  p.side = opposite(pos.side);
  return p;
}

}  // namespace dtb
