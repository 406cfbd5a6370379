#include "probe/rule_tables.h"

#include "index/colour.h"
#include "index/draw_rule_class.h"

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
  const Material m = table_material(p);
  const RuleClass rule = rule_class(m);
  if (rule == RuleClass::None) return not_in_class(error, m);
  const int limit = limit_plies(rule);
  if (plies_in_class < 0 || plies_in_class > limit)
    return fail(error, DTB_INVALID_ARGUMENT, m.name(),
                "plies_in_class must be 0.." + std::to_string(limit) + " for article " + article_of(rule));
  Outcome b;
  if (const dtb_status s = budget(p, b, error); s != DTB_OK) return s;
  out = rule_value_with_budget(b, limit - plies_in_class);
  return DTB_OK;
}

}  // namespace dtb::probe
