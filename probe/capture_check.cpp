#include "probe/capture_check.h"

namespace dtb::probe {
namespace {

// A shift without board.h's mask: every shifted set here is ANDed at once
// with a set of board squares (the empty squares, or the opponents), which
// drops whatever left the board; the mask would cost an instruction a shift.
template <int d>
constexpr Bitboard step(Bitboard b) {
  return d > 0 ? b << d : b >> -d;
}

// The squares a king on `kings` can reach along direction d through empty
// squares, itself included: a Kogge-Stone fill in steps of d, 2d, 4d, 8d
// (1 + 2 + 4 + 8 >= 9, the longest slide). `run` holds the squares from which
// the whole next stretch is empty, so a long shift never jumps a piece. In the
// padded layout a shift between two on-board squares is always a true
// diagonal step, so the long shifts cannot wrap around an edge either.
template <int d>
Bitboard slide_fill(Bitboard kings, Bitboard empty) {
  Bitboard reach = kings, run = empty;
  reach |= run & step<d>(reach);
  run &= step<d>(run);
  reach |= run & step<2 * d>(reach);
  run &= step<2 * d>(run);
  reach |= run & step<4 * d>(reach);
  run &= step<4 * d>(run);
  reach |= run & step<8 * d>(reach);
  return reach;
}

// A piece on `from` (men: adjacent; kings: after a slide) captures along d
// when the next square holds an opponent and the one beyond is empty.
template <int d>
bool jump_exists(Bitboard from, Bitboard opponents, Bitboard empty) {
  return (step<d>(step<d>(from) & opponents) & empty) != 0;
}

// One direction, with d a constant so every shift compiles to one instruction.
template <int d>
bool captures_along(Bitboard men, Bitboard kings, Bitboard opponents, Bitboard empty) {
  return jump_exists<d>(men, opponents, empty) ||
         (kings && jump_exists<d>(slide_fill<d>(kings, empty), opponents, empty));
}

}  // namespace

bool must_capture(const Position& p) {
  const Bitboard opponents = p.pieces(opposite(p.side));
  const Bitboard empty = p.empty();
  const Bitboard men = p.men_of(p.side), kings = p.kings_of(p.side);
  // Men capture backwards too (FMJD 4.1), so all four directions for both.
  return captures_along<kUpLeft>(men, kings, opponents, empty) ||
         captures_along<kUpRight>(men, kings, opponents, empty) ||
         captures_along<kDownLeft>(men, kings, opponents, empty) ||
         captures_along<kDownRight>(men, kings, opponents, empty);
}

}  // namespace dtb::probe
