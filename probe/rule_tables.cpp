#include "probe/rule_tables.h"

#include <algorithm>
#include <vector>

#include "index/colour.h"
#include "index/draw_rule_class.h"
#include "probe/move_choice.h"

namespace dtb::probe {
namespace {

dtb_status fail(ProbeError* error, dtb_status status, const std::string& material, std::string message) {
  if (error) *error = ProbeError{status, material, -1, std::move(message)};
  return status;
}

dtb_status not_in_class(ProbeError* error, const Material& m) {
  return fail(error, DTB_NOT_IN_CLASS, m.name(), m.name() + " is in no draw-limit class (6.3 or 6.4)");
}

}  // namespace

dtb_status RuleTables::check_count(const Position& p, int plies_in_class, ProbeError* error) {
  const Material m = table_material(p);
  const RuleClass rule = rule_class(m);
  if (rule == RuleClass::None) return not_in_class(error, m);
  const int limit = limit_plies(rule);
  if (plies_in_class < 0 || plies_in_class > limit)
    return fail(error, DTB_INVALID_ARGUMENT, m.name(),
                "plies_in_class " + std::to_string(plies_in_class) + " is outside 0.." + std::to_string(limit) +
                    " (article " + article_of(rule) + ")");
  return DTB_OK;
}

dtb_status RuleTables::budget(const Position& p, Outcome& out, ProbeError* error) {
  const Position q = white_to_move_form(p);
  const Material m = material_of(q);
  if (rule_class(m) == RuleClass::None) return not_in_class(error, m);
  std::uint16_t stored = 0;
  if (const dtb_status s = files_.value(q, stored, error); s != DTB_OK) return s;
  out = decode_rule(stored);
  return DTB_OK;
}

dtb_status RuleTables::rule_value(const Position& p, int plies_in_class, Wdl& out, ProbeError* error) {
  if (const dtb_status s = check_count(p, plies_in_class, error); s != DTB_OK) return s;
  Outcome b;
  if (const dtb_status s = budget(p, b, error); s != DTB_OK) return s;
  out = rule_value_with_budget(b, limit_plies(rule_class(table_material(p))) - plies_in_class);
  return DTB_OK;
}

dtb_status RuleTables::rule_after(const Position& p, int plies_in_class, const Move& m, RuleStep& out,
                                  ProbeError* error) {
  if (const dtb_status s = check_count(p, plies_in_class, error); s != DTB_OK) return s;
  out.plies_in_class = plies_in_class_after(p, plies_in_class, m);
  // Out of the classes (or the game is over): no count, the game's own value.
  if (out.plies_in_class < 0) return base_.wdl_after(p, m, out.value, error);
  const Position after = make_move(p, m);
  // The move used the last ply of the count: drawn, whatever follows.
  if (out.plies_in_class > limit_plies(rule_class(table_material(after)))) {
    out.value = Wdl::Draw;
    return DTB_OK;
  }
  Wdl v;
  if (const dtb_status s = rule_value(after, out.plies_in_class, v, error); s != DTB_OK) return s;
  out.value = negate(v);
  return DTB_OK;
}

dtb_status RuleTables::best_move(const Position& p, int plies_in_class, Move& out, ProbeError* error, Wdl* value) {
  if (const dtb_status s = check_count(p, plies_in_class, error); s != DTB_OK) return s;
  MoveList list;
  generate_moves(p, list);
  if (list.size == 0)
    return fail(error, DTB_GAME_OVER, "", "the side to move has no legal move: it has lost, the game is over");
  std::vector<RuleStep> steps(static_cast<std::size_t>(list.size));
  std::vector<Wdl> values(steps.size());
  Wdl top = Wdl::Loss;
  for (int i = 0; i < list.size; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (const dtb_status s = rule_after(p, plies_in_class, list[i], steps[k], error); s != DTB_OK) return s;
    values[k] = steps[k].value;
    top = std::max(top, values[k]);
  }
  if (value) *value = top;
  const auto move_cost = [&](int i, int& c) {
    c = 1;
    const RuleStep& step = steps[static_cast<std::size_t>(i)];
    if (step.plies_in_class <= 0) return DTB_OK;  // game over, no class, or a fresh count: this count is done
    Outcome b;
    const dtb_status s = budget(make_move(p, list[i]), b, error);
    c = 1 + b.plies;
    return s;
  };
  int chosen = -1;
  if (const dtb_status s = pick_move(list, values, top, move_cost, chosen); s != DTB_OK) return s;
  out = list[chosen];
  return DTB_OK;
}

}  // namespace dtb::probe
