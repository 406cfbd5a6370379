#include "drawrules/rule_builder.h"

#include <chrono>
#include <stdexcept>

#include "index/draw_rule_class.h"
#include "drawrules/distance_solve.h"

namespace dtb {

std::vector<Material> class_materials() {
  std::vector<Material> out;
  for (const Material& m : class_materials_white_strong()) {
    out.push_back(m);
    if (!m.symmetric()) out.push_back(m.reversed());
  }
  return out;
}

Outcome successor_in_rule_game(const TableSet& rules, const TableSet& dtw, RuleClass own,
                               const Position& w) {
  const RuleClass next = rule_class(material_of(w));
  if (next == RuleClass::None) {  // out of all classes: the theoretical value ends the count
    const Outcome o = decode_dtw(*dtw.lookup(w));
    return Outcome{o.value, 0};
  }
  const Outcome b = decode_rule(*rules.lookup(w));
  if (next == own) return b;  // same class (a promotion, or a capture inside 6.4): the count runs on
  // Another class: a fresh count; decided iff its budget fits the full limit.
  return Outcome{rule_value_with_budget(b, limit_plies(next)), 0};
}

std::optional<Material> missing_for_rules(const TableSet& rules, const TableSet& dtw, const Material& m) {
  for (const Material& x : {m, m.reversed()})
    for (const Material& d : direct_dependencies(x)) {
      const bool held = rule_class(d) == RuleClass::None ? dtw.contains(d) : rules.contains(d);
      if (!held) return d;
    }
  return std::nullopt;
}

TableSet build_rules(const TableSet& dtw, const Progress& progress, int max_pieces) {
  TableSet rules(TableKind::Rule);
  for (const Material& m : class_materials_white_strong()) {
    if (m.pieces() > max_pieces) continue;
    const auto start = std::chrono::steady_clock::now();
    const RuleClass own = rule_class(m);
    if (const auto missing = missing_for_rules(rules, dtw, m))
      throw std::logic_error("build_rules: " + m.name() + " needs " + missing->name() + " first");
    const TableSet& solved = rules;
    const ExitOutcome exits = [&solved, &dtw, own](const Position& w) {
      return successor_in_rule_game(solved, dtw, own, w);
    };
    solve_into(m, exits, encode_rule, rules);
    if (progress) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress(m.name() + " (rule " + article_of(own) + "): " + std::to_string(s) + " s");
    }
  }
  return rules;
}

}  // namespace dtb
