// One unit's .dtw or .rule values from the generator's distance policy
// against the explicit-graph reference (tests/reference/graph_solver.h),
// for the tests that compare them (test_distance_policy, test_exit_distances).
#pragma once

#include <catch2/catch.hpp>

#include "drawrules/table_set.h"
#include "rules/notation.h"
#include "tests/reference/graph_solver.h"

namespace dtb::testing {

// Positions of m's unit (m and reversed(m)) where `built` and the reference
// differ, at most five of them reported. The reference solve reads its exits
// through `exits` from the tables under test, so a mismatch names the first
// unit where the two part, not every unit after it.
inline std::uint64_t mismatches_in_unit(const Material& m, const TableSet& built,
                                        const reference::ExternalOutcome& exits, Outcome (*decode)(std::uint16_t)) {
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

// Every unit of up to max_pieces pieces, once each (m with m <= reversed(m)):
// the sum of their mismatches; `units` counts them.
inline std::uint64_t dtw_mismatches_up_to(int max_pieces, const TableSet& dtw, std::uint64_t& units) {
  const reference::ExternalOutcome exits = [&dtw](const Position& w) { return decode_dtw(*dtw.lookup(w)); };
  std::uint64_t mismatches = 0;
  units = 0;
  for (const Material& m : materials_in_build_order(max_pieces)) {
    if (m.reversed() < m) continue;
    mismatches += mismatches_in_unit(m, dtw, exits, decode_dtw);
    ++units;
  }
  return mismatches;
}

}  // namespace dtb::testing
