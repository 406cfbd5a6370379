#include "probe/counted_play.h"

#include <string>

#include "index/draw_rule_class.h"
#include "index/material.h"
#include "rules/article62.h"

namespace dtb::probe {

dtb_status check_counts(const dtb_counts& counts, const char* function, ProbeError* error) {
  if (counts.plies_since_conversion >= 0 && counts.plies_since_conversion <= kMaxPliesSinceConversion)
    return DTB_OK;
  if (error)
    *error = ProbeError{DTB_INVALID_ARGUMENT, "", -1,
                        std::string(function) + ": plies_since_conversion must be 0..49 (at 50 the game is drawn)"};
  return DTB_INVALID_ARGUMENT;
}

int class_count(const Position& p, const dtb_counts& counts) {
  return class_count_of(material_of(p), counts.plies_since_conversion, counts.plies_in_class);
}

bool class_count_ran_out(const Position& p, const dtb_counts& counts) {
  const RuleClass rule = rule_class(material_of(p));
  return rule != RuleClass::None && class_count(p, counts) >= limit_plies(rule);
}

dtb_status counted_value(dtb_tables& tables, const Position& p, const dtb_counts& counts, Wdl& out,
                         ProbeError* error) {
  const RuleClass rule = rule_class(material_of(p));
  if (rule == RuleClass::None) return tables.play->article62(p, counts.plies_since_conversion, out, error);
  const int count = class_count(p, counts);
  if (count > limit_plies(rule)) {  // the class count ran out: the game was drawn
    out = Wdl::Draw;
    return DTB_OK;
  }
  return tables.rules->rule_value(p, count, out, error);
}

dtb_status counted_best_move(dtb_tables& tables, const Position& p, const dtb_counts& counts, Move& out,
                             ProbeError* error, Wdl* value) {
  if (rule_class(material_of(p)) == RuleClass::None)
    return tables.play->best_move_article62(p, counts.plies_since_conversion, out, error, value);
  // At the limit the rule has drawn the game, as dtb_probe_root and the
  // answers of dtb probe and dtb serve read it: there is no move to play.
  if (class_count_ran_out(p, counts)) {
    if (error)
      *error = ProbeError{DTB_INVALID_ARGUMENT, "", -1,
                          "dtb_best_move_counted: the class count has reached its limit (" +
                              std::to_string(limit_plies(rule_class(material_of(p)))) +
                              " plies): the rule has drawn the game"};
    return DTB_INVALID_ARGUMENT;
  }
  return tables.rules->best_move(p, class_count(p, counts), out, error, value);
}

}  // namespace dtb::probe
