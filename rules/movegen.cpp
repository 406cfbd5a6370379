#include "rules/movegen.h"

namespace dtb {
namespace {

// One bit, or none for a step that left the 64-bit word (top or bottom edge).
constexpr Bitboard bit(int b) { return static_cast<unsigned>(b) < 64 ? (Bitboard{1} << b) : 0; }

// Directions a colour's men move in without capturing.
constexpr std::array<int, 2> forward_directions(Color c) {
  return c == Color::White ? std::array<int, 2>{kUpLeft, kUpRight}
                           : std::array<int, 2>{kDownLeft, kDownRight};
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
    for (int d : kDirections) {
      int t = sq + d;
      while (empty_ & bit(t)) t += d;  // slide over empty squares
      if (!(opponents_ & ~taken & bit(t))) continue;
      const Bitboard victim = bit(t);
      for (int land = t + d; empty_ & bit(land); land += d) {
        extended = true;
        king(land, taken | victim);
      }
    }
    if (!extended && taken) finish(sq, taken);
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

// Whether the king on `sq` can capture something.
bool king_has_capture(int sq, Bitboard opponents, Bitboard empty) {
  for (int d : kDirections) {
    int t = sq + d;
    while (empty & bit(t)) t += d;
    if ((opponents & bit(t)) && (empty & bit(t + d))) return true;
  }
  return false;
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
  Bitboard kings = pos.kings_of(us);
  while (kings) {
    const int from = pop_lsb(kings);
    for (int d : kDirections)
      for (int to = from + d; empty & bit(to); to += d) ++n;
  }
  return n;
}

Position make_move(const Position& pos, const Move& m) {
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
