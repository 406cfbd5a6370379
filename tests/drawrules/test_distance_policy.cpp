// The generator's distance policy (solver/exit_distances.h) against the
// explicit-graph reference (tests/reference/graph_solver.h): two methods on
// one game, compared at every position of every unit of up to 4 pieces and
// of every 6.3/6.4 class material (test_exit_distances has the 2-3 piece
// form for the fast tier).
#include <catch2/catch.hpp>

#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "index/draw_rule_class.h"
#include "tests/drawrules/unit_comparison.h"

using namespace dtb;

TEST_CASE("every dtw of 2 to 4 pieces from the distance policy equals the explicit-graph reference") {
  const TableSet dtw = build_dtw_up_to(4);
  std::uint64_t units = 0, materials = 0, symmetric = 0;
  const std::uint64_t mismatches = testing::dtw_mismatches_up_to(4, dtw, units);
  for (const Material& m : materials_in_build_order(4)) ++materials, symmetric += m.symmetric();
  CHECK(2 * units == materials + symmetric);
  CHECK(mismatches == 0);
}

TEST_CASE("every rule budget of the 6.3 and 6.4 classes from the distance policy equals the explicit-graph reference") {
  const TableSet dtw = build_dtw(dependency_closure(class_materials()));
  const TableSet rules = build_rules(dtw);
  std::uint64_t units = 0, mismatches = 0;
  for (const Material& m : class_materials_white_strong()) {
    const RuleClass own = rule_class(m);
    const reference::ExternalOutcome exits = [&rules, &dtw, own](const Position& w) {
      return successor_in_rule_game(rules, dtw, own, w);
    };
    mismatches += testing::mismatches_in_unit(m, rules, exits, decode_rule);
    ++units;
  }
  CHECK(units == class_materials_white_strong().size());
  CHECK(mismatches == 0);
}
