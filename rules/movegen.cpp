#include "rules/movegen.h"

#include <bit>

namespace dtb {
namespace {

// One bit, or none for a step that left the 64-bit word (top or bottom edge).
constexpr Bitboard bit(int b) { return static_cast<unsigned>(b) < 64 ? (Bitboard{1} << b) : 0; }

// Directions a colour's men move in without capturing.
constexpr std::array<int, 2> forward_directions(Color c) {
  return c == Color::White ? std::array<int, 2>{kUpLeft, kUpRight}
                           : std::array<int, 2>{kDownLeft, kDownRight};
}

// kRays[b][k]: the squares a king on bit b sees along kDirections[k] on an
// empty board, not b itself. Built once at compile time by repeated shifts,
// so a king's slide is one mask and one bit scan instead of a square-by-square
// loop (the king capture search was a fifth of a 6-piece build's time).
using RayTable = std::array<std::array<Bitboard, 4>, 64>;
constexpr RayTable make_rays() {
  RayTable rays{};
  for (int b = 0; b < kBits; ++b) {
    if (!((Bitboard{1} << b) & kBoardMask)) continue;  // ghost bits see nothing
    for (int k = 0; k < 4; ++k)
      for (Bitboard s = shift(Bitboard{1} << b, kDirections[k]); s; s = shift(s, kDirections[k])) rays[b][k] |= s;
  }
  return rays;
}
constexpr RayTable kRays = make_rays();
static_assert(kRays[bit_of_square(46)][1] == (square_bb(41) | square_bb(37) | square_bb(32) | square_bb(28) |
                                              square_bb(23) | square_bb(19) | square_bb(14) | square_bb(10) |
                                              square_bb(5)));
static_assert(kRays[bit_of_square(1)][0] == 0 && kRays[bit_of_square(6)][0] == 0);

// The square of `squares` nearest along direction k: the up directions
// (negative shifts) go towards bit 0, so the nearest is the highest bit.
template <int k>
int nearest(Bitboard squares) {
  return kDirections[k] < 0 ? 63 - std::countl_zero(squares) : std::countr_zero(squares);
}
template <int k>
int pop_nearest(Bitboard& squares) {
  const int b = nearest<k>(squares);
  squares &= ~(Bitboard{1} << b);
  return b;
}

// The squares a king on `sq` can slide to along direction k: its ray up to,
// not including, the first occupied square.
template <int k>
Bitboard slide_along(int sq, Bitboard empty) {
  const Bitboard ray = kRays[sq][k];
  const Bitboard blockers = ray & ~empty;
  if (!blockers) return ray;
  const int b = nearest<k>(blockers);
  return ray & ~kRays[b][k] & ~(Bitboard{1} << b);
}

void push(MoveList& list, const Move& m) {
  if (list.size < MoveList::kCapacity)
    list.moves[static_cast<std::size_t>(list.size++)] = m;
  else
    list.overflow = true;
}

// Depth-first search over capture sequences of one piece. Jumped pieces stay
// in `opponents` (they block) but are excluded from further jumps through
// `taken`; `empty` includes the mover's starting square.
class CaptureSearch {
 public:
  CaptureSearch(Bitboard opponents, Bitboard empty, MoveList& list, bool keep_paths)
      : opponents_(opponents), board_empty_(empty), empty_(empty), list_(list), keep_paths_(keep_paths) {}

  // All maximal capture sequences of the piece on `from`. The mover's own
  // square is empty while it moves.
  void search(int from, bool is_king) {
    from_ = from;
    empty_ = board_empty_ | bit(from);
    if (is_king)
      king(from, 0);
    else
      man(from, 0);
  }

  int most_taken() const { return best_; }

 private:
  void man(int sq, Bitboard taken) {
    bool extended = false;
    for (int d : kDirections) {
      const int over = sq + d, land = sq + 2 * d;
      if ((opponents_ & ~taken & bit(over)) && (empty_ & bit(land))) {
        extended = true;
        man(land, taken | bit(over));
      }
    }
    if (!extended && taken) finish(sq, taken);
  }

  void king(int sq, Bitboard taken) {
    bool extended = false;
    extended |= king_along<0>(sq, taken);
    extended |= king_along<1>(sq, taken);
    extended |= king_along<2>(sq, taken);
    extended |= king_along<3>(sq, taken);
    if (!extended && taken) finish(sq, taken);
  }

  // One direction of a king's capture from `sq`: the first occupied square
  // along the ray must hold an opponent not yet taken, and every empty
  // square between it and the next occupied one (or the edge) is a landing.
  // Landings are tried nearest first, as a square-by-square slide would.
  template <int k>
  bool king_along(int sq, Bitboard taken) {
    const Bitboard blockers = kRays[sq][k] & ~empty_;
    if (!blockers) return false;
    const int t = nearest<k>(blockers);
    const Bitboard victim = Bitboard{1} << t;
    if (!(opponents_ & ~taken & victim)) return false;
    Bitboard landings = slide_along<k>(t, empty_);
    if (!landings) return false;
    while (landings) king(pop_nearest<k>(landings), taken | victim);
    return true;
  }

  // A complete sequence: keep it only if it takes the most pieces so far,
  // and only once per (from, to, captured) triple.
  void finish(int to, Bitboard taken) {
    const int n = popcount(taken);
    if (n < best_) return;
    if (n > best_) {
      best_ = n;
      list_.size = 0;
      list_.overflow = false;
    }
    const Move m{taken, static_cast<std::uint8_t>(from_), static_cast<std::uint8_t>(to)};
    if (!keep_paths_)
      for (int i = 0; i < list_.size; ++i)
        if (list_[i] == m) return;
    push(list_, m);
  }

  Bitboard opponents_, board_empty_, empty_;
  MoveList& list_;
  bool keep_paths_;
  int from_ = 0;
  int best_ = 0;
};

// Men of `us` that can jump an adjacent opponent (any of the four directions).
Bitboard men_with_capture(Bitboard men, Bitboard opponents, Bitboard empty) {
  Bitboard can = 0;
  for (int d : kDirections) can |= shift(opponents & shift(empty, -d), -d);
  return men & can;
}

// Whether the king on `sq` can capture something: along some ray, the first
// occupied square holds an opponent and the square beyond it is empty.
template <int k>
bool king_captures_along(int sq, Bitboard opponents, Bitboard empty) {
  const Bitboard blockers = kRays[sq][k] & ~empty;
  if (!blockers) return false;
  const Bitboard first = Bitboard{1} << nearest<k>(blockers);
  return (opponents & first) && (shift(first, kDirections[k]) & empty);
}

bool king_has_capture(int sq, Bitboard opponents, Bitboard empty) {
  return king_captures_along<0>(sq, opponents, empty) || king_captures_along<1>(sq, opponents, empty) ||
         king_captures_along<2>(sq, opponents, empty) || king_captures_along<3>(sq, opponents, empty);
}

bool generate_captures(const Position& pos, MoveList& list, bool keep_paths = false) {
  const Color us = pos.side;
  const Bitboard opponents = pos.pieces(opposite(us));
  const Bitboard empty = pos.empty();
  CaptureSearch search(opponents, empty, list, keep_paths);
  Bitboard men = men_with_capture(pos.men_of(us), opponents, empty);
  while (men) search.search(pop_lsb(men), false);
  Bitboard kings = pos.kings_of(us);
  while (kings) {
    const int sq = pop_lsb(kings);
    if (king_has_capture(sq, opponents, empty)) search.search(sq, true);
  }
  return search.most_taken() > 0;
}

void generate_quiet(const Position& pos, MoveList& list) {
  const Color us = pos.side;
  const Bitboard empty = pos.empty();
  const Bitboard men = pos.men_of(us);
  for (int d : forward_directions(us)) {
    Bitboard targets = shift(men, d) & empty;
    while (targets) {
      const int to = pop_lsb(targets);
      push(list, Move{0, static_cast<std::uint8_t>(to - d), static_cast<std::uint8_t>(to)});
    }
  }
  Bitboard kings = pos.kings_of(us);
  while (kings) {
    const int from = pop_lsb(kings);
    for (int d : kDirections)
      for (int to = from + d; empty & bit(to); to += d)
        push(list, Move{0, static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)});
  }
}

}  // namespace

void generate_moves(const Position& pos, MoveList& list) {
  list.size = 0;
  list.overflow = false;
  if (!generate_captures(pos, list)) generate_quiet(pos, list);
}

void generate_quiet_moves(const Position& pos, MoveList& list) {
  list.size = 0;
  list.overflow = false;
  generate_quiet(pos, list);
}

void generate_move_paths(const Position& pos, MoveList& list) {
  list.size = 0;
  list.overflow = false;
  if (!generate_captures(pos, list, true)) generate_quiet(pos, list);
}

bool has_capture(const Position& pos) {
  const Color us = pos.side;
  const Bitboard opponents = pos.pieces(opposite(us));
  const Bitboard empty = pos.empty();
  if (men_with_capture(pos.men_of(us), opponents, empty)) return true;
  Bitboard kings = pos.kings_of(us);
  while (kings)
    if (king_has_capture(pop_lsb(kings), opponents, empty)) return true;
  return false;
}

int count_moves(const Position& pos) {
  if (has_capture(pos)) {
    MoveList list;
    generate_captures(pos, list);
    return list.size;
  }
  const Color us = pos.side;
  const Bitboard empty = pos.empty();
  const Bitboard men = pos.men_of(us);
  int n = 0;
  for (int d : forward_directions(us)) n += popcount(shift(men, d) & empty);
  return n + count_king_moves(pos.kings_of(us), empty);
}

int count_king_moves(Bitboard kings, Bitboard empty) {
  int n = 0;
  while (kings) {
    const int sq = pop_lsb(kings);
    // (the four rays of a square are disjoint)
    n += popcount(slide_along<0>(sq, empty) | slide_along<1>(sq, empty) | slide_along<2>(sq, empty) |
                  slide_along<3>(sq, empty));
  }
  return n;
}

}  // namespace dtb
