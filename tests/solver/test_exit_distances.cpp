// The fast tier's check of the solver's distance policy
// (solver/exit_distances.h): every .dtw value of 2 and 3 pieces and every
// .rule value of the 3-piece 6.4 materials against the explicit-graph
// reference (test_distance_policy does 4 pieces and every class).
#include <catch2/catch.hpp>

#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "index/draw_rule_class.h"
#include "tests/drawrules/unit_comparison.h"

using namespace dtb;

TEST_CASE("the distance policy gives every dtw of 2 and 3 pieces that the explicit-graph reference gives") {
  const TableSet dtw = build_dtw_up_to(3);
  std::uint64_t units = 0;
  CHECK(testing::dtw_mismatches_up_to(3, dtw, units) == 0);
  CHECK(units == 9);  // KvK, KvM, MvM, and six pairs of 3 pieces (none is its own reversal)
}

TEST_CASE("the distance policy gives every 6.4 rule budget of 3 pieces that the explicit-graph reference gives") {
  const TableSet dtw = build_dtw_up_to(3);
  const TableSet rules = build_rules(dtw, {}, 3);
  std::uint64_t units = 0, mismatches = 0;
  for (const Material& m : class_materials_white_strong()) {
    if (m.pieces() > 3) continue;
    const RuleClass own = rule_class(m);
    const reference::ExternalOutcome exits = [&rules, &dtw, own](const Position& w) {
      return successor_in_rule_game(rules, dtw, own, w);
    };
    mismatches += testing::mismatches_in_unit(m, rules, exits, decode_rule);
    ++units;
  }
  CHECK(units > 0);
  CHECK(mismatches == 0);
}
