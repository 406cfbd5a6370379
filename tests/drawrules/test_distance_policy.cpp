// The generator's distance policy (solver/exit_distances.h) against the
// explicit-graph reference (tests/reference/graph_solver.h): two methods on
// one game, compared at every position of every unit. Each unit's reference
// solve reads its exits from the tables under test, so a mismatch names the
// first unit where the two part, not every unit after it.
#include <catch2/catch.hpp>

#include <string>

#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "index/draw_rule_class.h"
#include "rules/notation.h"
#include "tests/reference/graph_solver.h"

using namespace dtb;

namespace {

// Positions of `unit` (m and reversed(m)) where `built` and the reference
// differ, at most five of them reported.
std::uint64_t mismatches_in_unit(const Material& m, const TableSet& built, const reference::ExternalOutcome& exits,
                                 Outcome (*decode)(std::uint16_t)) {
  std::vector<Material> unit{m};
  if (!m.symmetric()) unit.push_back(m.reversed());
  std::vector<const PositionIndex*> indexes;
  for (const Material& x : unit) indexes.push_back(&built.index(x));
  const std::vector<std::vector<Outcome>> expected = reference::solve_unit_by_graph(indexes, exits);
  std::uint64_t mismatches = 0;
  for (std::size_t k = 0; k < unit.size(); ++k)
    for (std::uint64_t i = 0; i < expected[k].size(); ++i) {
      const Outcome got = decode(built.values(unit[k])[i]);
      if (got == expected[k][i] || ++mismatches > 5) continue;
      const Outcome want = expected[k][i];
      FAIL_CHECK(unit[k].name() << " " << to_fen(indexes[k]->unrank(i)) << ": solver " << to_string(got.value) << " "
                                << got.plies << ", reference " << to_string(want.value) << " " << want.plies);
    }
  return mismatches;
}

}  // namespace

TEST_CASE("every dtw of 2 to 4 pieces from the distance policy equals the explicit-graph reference") {
  const TableSet dtw = build_dtw_up_to(4);
  const reference::ExternalOutcome exits = [&dtw](const Position& w) { return decode_dtw(*dtw.lookup(w)); };
  std::uint64_t units = 0, mismatches = 0, materials = 0, symmetric = 0;
  for (const Material& m : materials_in_build_order(4)) {
    ++materials;
    symmetric += m.symmetric();
    if (m.reversed() < m) continue;  // each unit once
    mismatches += mismatches_in_unit(m, dtw, exits, decode_dtw);
    ++units;
  }
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
    mismatches += mismatches_in_unit(m, rules, exits, decode_rule);
    ++units;
  }
  CHECK(units == class_materials_white_strong().size());
  CHECK(mismatches == 0);
}
