// Independent references for the drawrules/ tables, written without them: no
// PositionIndex, no compress/, no retrograde solver. Positions are keys of
// hash maps and every value comes straight from the move generator. Unlike
// the WDL references (naive_solver.h, reference_solver.h) these give each
// value with its exact distance, and the values under the 6.3/6.4 limits.
//
// - ExplicitGame: every position reachable from some seeds, as an explicit
//   graph, solved by synchronous depth-limited minimax sweeps: after sweep k
//   each value is the minimax value with the game cut off after k plies, so
//   when a sweep changes nothing the values (with their distances) are exact.
//   Used on whole materials of up to 3 pieces.
// - DepthLimitedMinimax: plain recursive minimax with a memo keyed by
//   (position, plies left), for the 4-piece class positions: the theoretical
//   value within k plies (dtw) and the rule value with r plies of count left,
//   with the exits of articles 6.3/6.4 written out again from RULES.md.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/value.h"
#include "tests/support/position_hash.h"

namespace dtb::reference {

struct Value {
  Wdl wdl = Wdl::Draw;
  int plies = 0;  // meaningful for a win or a loss
  friend bool operator==(const Value&, const Value&) = default;
};

/// The draw-limit class of a position, as RULES.md words it: 0 none,
/// 16 (article 6.3) or 5 (6.4) moves each.
int limit_moves_of(const Position& p);

/// Every placement of 2 and 3 pieces, both sides to move (a Black-to-move
/// position after a capture is reached from no 3-piece position, so both
/// sides must be seeds of an ExplicitGame).
std::vector<Position> small_positions();

class ExplicitGame {
 public:
  /// Explore every position reachable from the seeds, then solve.
  explicit ExplicitGame(const std::vector<Position>& seeds);
  /// The exact value of a position that was reached (throws otherwise).
  Value value(const Position& p) const;
  /// The rule value of a reached class position with `remaining` plies of
  /// its count left (0..10 for 6.4, 0..32 for 6.3): depth-limited minimax,
  /// computed for all positions at once, bottom-up, one budget after the
  /// other (6.4 first: a capture from 6.3 enters 6.4 with a fresh count).
  Wdl rule_value(const Position& p, int remaining) const;
  std::size_t size() const { return nodes_.size(); }

 private:
  void solve_rules(int limit_moves);

  std::unordered_map<Position, std::uint32_t, test::PositionHash> id_;
  std::vector<Position> nodes_;
  std::vector<std::uint32_t> first_, children_;  // kTerminal marks "took the last piece"
  std::vector<Value> values_;
  std::vector<std::vector<Wdl>> rule_;  // [remaining][node], draws outside classes
};

class DepthLimitedMinimax {
 public:
  /// `small` supplies exact theoretical values of positions of <= 3 pieces.
  explicit DepthLimitedMinimax(const ExplicitGame& small) : small_(small) {}

  /// Theoretical value when the game is cut off after k plies (a draw if
  /// nobody can force the end within k). Win/loss come with their distance.
  Value within(const Position& p, int k);
  /// dtw by iterative deepening up to max_plies; a draw if undecided there.
  Value dtw(const Position& p, int max_plies);

  /// Rule value with `remaining` plies left in p's class count.
  Wdl rule_value(const Position& p, int remaining);

 private:
  struct Key {
    Position p;
    int depth;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return test::PositionHash()(k.p) * 31 + static_cast<std::size_t>(k.depth);
    }
  };
  const ExplicitGame& small_;
  std::unordered_map<Key, Value, KeyHash> within_memo_;
  std::unordered_map<Key, Wdl, KeyHash> rule_memo_;
};

}  // namespace dtb::reference
