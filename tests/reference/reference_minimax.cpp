#include "tests/reference/reference_minimax.h"

#include <algorithm>
#include <stdexcept>

#include "tests/support/every_position.h"

namespace dtb::reference {
namespace {

constexpr std::uint32_t kTerminal = 0xFFFFFFFFu;  // a move that took the last piece

// The mover's opponent (the side to move in the successor) has no piece left.
bool took_last_piece(const Position& after) { return after.pieces(after.side) == 0; }

// Combine successor values (each from the successor's mover's view) into the
// value of the position: the winner shortest, the loser longest.
struct Combiner {
  int best_win = -1, longest_loss = -1;
  bool undecided = false;
  void add(const Value& child) {
    if (child.wdl == Wdl::Loss) {
      if (best_win < 0 || child.plies + 1 < best_win) best_win = child.plies + 1;
    } else if (child.wdl == Wdl::Win) {
      longest_loss = std::max(longest_loss, child.plies + 1);
    } else {
      undecided = true;
    }
  }
  Value result() const {
    if (best_win >= 0) return Value{Wdl::Win, best_win};
    if (!undecided && longest_loss >= 0) return Value{Wdl::Loss, longest_loss};
    return Value{};
  }
};

}  // namespace

std::vector<Position> small_positions() {
  std::vector<Position> all;
  for (int w = 1; w <= 2; ++w)
    for (int b = 1; w + b <= 3; ++b)
      for (int wk = 0; wk <= w; ++wk)
        for (int bk = 0; bk <= b; ++bk)
          for (Color side : {Color::White, Color::Black}) {
            const Material m{static_cast<std::uint8_t>(wk), static_cast<std::uint8_t>(w - wk),
                             static_cast<std::uint8_t>(bk), static_cast<std::uint8_t>(b - bk)};
            const std::vector<Position> some = test::all_placements(m, side);
            all.insert(all.end(), some.begin(), some.end());
          }
  return all;
}

ExplicitGame::ExplicitGame(const std::vector<Position>& seeds) {
  for (const Position& s : seeds)
    if (id_.emplace(s, static_cast<std::uint32_t>(nodes_.size())).second) nodes_.push_back(s);
  MoveList moves;
  first_.push_back(0);
  for (std::size_t i = 0; i < nodes_.size(); ++i) {  // nodes_ grows while we walk it
    const Position p = nodes_[i];
    generate_moves(p, moves);
    for (const Move& m : moves) {
      const Position next = make_move(p, m);
      if (took_last_piece(next)) {
        children_.push_back(kTerminal);
        continue;
      }
      const auto [it, fresh] = id_.emplace(next, static_cast<std::uint32_t>(nodes_.size()));
      if (fresh) nodes_.push_back(next);
      children_.push_back(it->second);
    }
    first_.push_back(static_cast<std::uint32_t>(children_.size()));
  }
  // Synchronous sweeps: sweep k computes the minimax value cut off at k plies
  // from the values cut off at k - 1.
  values_.assign(nodes_.size(), Value{});
  std::vector<Value> next(nodes_.size());
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      Combiner c;
      if (first_[i] == first_[i + 1]) {
        next[i] = Value{Wdl::Loss, 0};  // no legal move
      } else {
        for (std::uint32_t e = first_[i]; e < first_[i + 1]; ++e)
          c.add(children_[e] == kTerminal ? Value{Wdl::Loss, 0} : values_[children_[e]]);
        next[i] = c.result();
      }
      changed |= !(next[i] == values_[i]);
    }
    values_.swap(next);
  }
  rule_.assign(33, std::vector<Wdl>(nodes_.size(), Wdl::Draw));
  solve_rules(5);   // 6.4 first: 6.3 captures enter it with a fresh count
  solve_rules(16);
}

void ExplicitGame::solve_rules(int limit_moves) {
  for (int r = 0; r <= 2 * limit_moves; ++r) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (limit_moves_of(nodes_[i]) != limit_moves) continue;
      Wdl best = Wdl::Loss;  // no legal move: lost at any count
      if (first_[i] != first_[i + 1]) best = r == 0 ? Wdl::Draw : Wdl::Loss;
      for (std::uint32_t e = first_[i]; r > 0 && e < first_[i + 1]; ++e) {
        const std::uint32_t c = children_[e];
        Wdl v;
        if (c == kTerminal) {
          v = Wdl::Win;
        } else if (const int cls = limit_moves_of(nodes_[c]); cls == limit_moves) {
          v = negate(rule_[static_cast<std::size_t>(r - 1)][c]);  // same class: the count runs on
        } else if (cls != 0) {
          v = negate(rule_[static_cast<std::size_t>(2 * cls)][c]);  // another class: a fresh count
        } else {
          v = negate(values_[c].wdl);  // no class: the theoretical value
        }
        best = std::max(best, v);
      }
      rule_[static_cast<std::size_t>(r)][i] = best;
    }
  }
}

Wdl ExplicitGame::rule_value(const Position& p, int remaining) const {
  const auto it = id_.find(p);
  const int cls = limit_moves_of(p);
  if (it == id_.end() || cls == 0 || remaining < 0 || remaining > 2 * cls)
    throw std::out_of_range("ExplicitGame::rule_value: not a reached class position or budget");
  return rule_[static_cast<std::size_t>(remaining)][it->second];
}

Value ExplicitGame::value(const Position& p) const {
  const auto it = id_.find(p);
  if (it == id_.end()) throw std::out_of_range("position not in the explicit game");
  return values_[it->second];
}

int limit_moves_of(const Position& p) {
  // One side has exactly one piece, a king; the other a king and at most two
  // more pieces (three pieces: 16 moves; one or two: 5 moves).
  const auto lone_king = [&](Color c) {
    return popcount(p.pieces(c)) == 1 && (p.kings_of(c) == p.pieces(c));
  };
  for (Color lone : {Color::Black, Color::White}) {
    if (!lone_king(lone)) continue;
    const Color strong = opposite(lone);
    const int pieces = popcount(p.pieces(strong)), kings = popcount(p.kings_of(strong));
    if (kings == 0) continue;
    if (pieces == 3) return 16;
    if (pieces <= 2) return 5;
  }
  return 0;
}

Value DepthLimitedMinimax::within(const Position& p, int k) {
  const Key key{p, k};
  if (const auto it = within_memo_.find(key); it != within_memo_.end()) return it->second;
  MoveList moves;
  generate_moves(p, moves);
  Value result;
  if (moves.size == 0) {
    result = Value{Wdl::Loss, 0};
  } else if (k > 0) {
    Combiner c;
    for (const Move& m : moves) {
      const Position next = make_move(p, m);
      if (took_last_piece(next)) {
        c.add(Value{Wdl::Loss, 0});
        continue;
      }
      if (popcount(next.occupied()) <= 3) {
        const Value exact = small_.value(next);
        c.add(exact.wdl != Wdl::Draw && exact.plies <= k - 1 ? exact : Value{});
      } else {
        c.add(within(next, k - 1));
      }
    }
    result = c.result();
  }
  within_memo_.emplace(key, result);
  return result;
}

Value DepthLimitedMinimax::dtw(const Position& p, int max_plies) { return within(p, max_plies); }

Wdl DepthLimitedMinimax::rule_value(const Position& p, int remaining) {
  if (popcount(p.occupied()) <= 3) return small_.rule_value(p, remaining);
  const Key key{p, remaining};
  if (const auto it = rule_memo_.find(key); it != rule_memo_.end()) return it->second;
  const int own = limit_moves_of(p);
  if (own == 0) throw std::invalid_argument("rule_value: position in no class");
  MoveList moves;
  generate_moves(p, moves);
  Wdl best = Wdl::Loss;  // also the value without a legal move
  if (moves.size > 0 && remaining == 0) best = Wdl::Draw;  // 2N plies played: the limit strikes
  if (moves.size > 0 && remaining > 0) {
    for (const Move& m : moves) {
      const Position next = make_move(p, m);
      Wdl v;
      if (took_last_piece(next)) {
        v = Wdl::Win;
      } else if (const int cls = limit_moves_of(next); cls == own) {
        v = negate(rule_value(next, remaining - 1));  // same class: the count runs on
      } else if (cls == 5) {
        v = negate(small_.rule_value(next, 10));  // into 6.4: a fresh count
      } else {
        if (popcount(next.occupied()) > 3) throw std::logic_error("no-class successor with 4 pieces");
        v = negate(small_.value(next).wdl);  // no class: the theoretical value
      }
      best = std::max(best, v);
      if (best == Wdl::Win) break;
    }
  }
  rule_memo_.emplace(key, best);
  return best;
}

}  // namespace dtb::reference
