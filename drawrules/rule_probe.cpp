#include "drawrules/rule_probe.h"

#include <limits>

#include "index/draw_rule_class.h"
#include "rules/notation.h"

namespace dtb {

std::optional<Outcome> rule_budget(const TableSet& rules, const Position& p) {
  const Position w = white_to_move_form(p);
  if (w.white == 0 || w.black == 0) return std::nullopt;
  if (rule_class(material_of(w)) == RuleClass::None) return std::nullopt;
  const auto v = rules.lookup(w);
  if (!v) return std::nullopt;
  return decode_rule(*v);
}

std::optional<Wdl> rule_value(const TableSet& rules, const Position& p, int plies_in_class) {
  const auto budget = rule_budget(rules, p);
  if (!budget) return std::nullopt;
  const int limit = limit_plies(rule_class(material_of(p)));
  if (plies_in_class < 0 || plies_in_class > limit) return std::nullopt;
  return rule_value_with_budget(*budget, limit - plies_in_class);
}

namespace {

// Where a game stands: the position and the plies played in its class
// (-1 when it is in no class).
struct State {
  Position pos;
  int count = -1;
};

State after(const State& s, const Move& m) {
  return State{make_move(s.pos, m), plies_in_class_after(s.pos, s.count, m)};
}

// The value of a state and the plies it needs: under the limit inside a
// class (the budget must fit what is left), by dtw outside. nullopt when the
// table it needs is not held.
std::optional<Outcome> value_of(const TableSet& rules, const TableSet& dtw, const State& s) {
  const Position w = white_to_move_form(s.pos);
  if (w.white == 0) return Outcome{Wdl::Loss, 0};
  if (s.count >= 0) {
    const auto b = rule_budget(rules, s.pos);
    if (!b) return std::nullopt;
    const int left = limit_plies(rule_class(material_of(s.pos))) - s.count;
    return rule_value_with_budget(*b, left) == Wdl::Draw ? Outcome{} : *b;
  }
  const auto v = dtw.lookup(w);
  if (!v) return std::nullopt;
  return decode_dtw(*v);
}

}  // namespace

std::vector<LineStep> principal_line(const TableSet& rules, const TableSet& dtw, const Position& p,
                                     int plies_in_class, int max_plies) {
  std::vector<LineStep> line;
  State s{p, rule_budget(rules, p) ? plies_in_class : -1};
  MoveList moves;
  for (int ply = 0; ply < max_plies; ++ply) {
    const auto here = value_of(rules, dtw, s);
    if (!here || here->value == Wdl::Draw) break;
    const Outcome v = *here;
    generate_moves(s.pos, moves);
    if (moves.size == 0) break;
    // The winner takes the successor that loses soonest; the loser the
    // successor that wins latest. Inside a class a successor that leaves it
    // counts as 0 plies (the count ends there), as in the budget definition.
    int best = -1;
    long best_score = std::numeric_limits<long>::min();
    State best_state;
    for (int i = 0; i < moves.size; ++i) {
      const State t = after(s, moves[i]);
      const auto known = value_of(rules, dtw, t);
      if (!known) return line;  // a table the line needs is not held: stop here
      const Outcome c = *known;
      const bool leaves_class = s.count >= 0 && (t.count < 0 || t.count == 0);
      const long plies = leaves_class ? 0 : c.plies;
      long score;
      if (v.value == Wdl::Win)
        score = c.value == Wdl::Loss ? -plies : std::numeric_limits<long>::min() + 1;
      else
        score = c.value == Wdl::Win ? plies : std::numeric_limits<long>::min() + 1;
      if (score > best_score) {
        best_score = score;
        best = i;
        best_state = t;
      }
    }
    line.push_back(LineStep{moves[best], s.pos, best_state.count});
    s = best_state;
  }
  return line;
}

std::string line_to_string(const std::vector<LineStep>& line) {
  std::string out;
  if (line.empty()) return out;
  const int black_first = line[0].before.side == Color::Black ? 1 : 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const LineStep& st = line[i];
    const std::string number = std::to_string(1 + (static_cast<int>(i) + black_first) / 2);
    if (i > 0) out += ' ';
    if (st.before.side == Color::White)
      out += number + ". ";
    else if (i == 0)
      out += number + "... ";
    out += move_to_string(st.before, st.move);
  }
  return out;
}

}  // namespace dtb
