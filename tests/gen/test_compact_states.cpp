// The compact working state of kings-only units (solver/level_states.h: half a
// byte a position, losses found by checking every move instead of counting)
// against the byte state with its move counters: the same value, capture
// flag and MTC at every position of every kings-only unit up to 5 pieces
// (the 5-piece ones read only the 2-4 piece test tables), and the same with
// one thread as with two.
#include <catch2/catch.hpp>

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "solver/unit_solver.h"
#include "index/position_index.h"
#include "rules/notation.h"
#include "tests/gen/test_tables.h"

using namespace dtb;

namespace {

gen::UnitSolution solve(const Material& m, bool compact) {
  gen::UnitSolution solution;
  gen::SolveOptions options;
  options.mtc = true;
  options.compact_states = compact;
  REQUIRE(gen::solve_unit(m, gen::testing::test_store(), nullptr, solution, options) == gen::SolveStatus::Ok);
  REQUIRE(solution.mtc.size() == solution.materials.size());
  return solution;
}

void expect_same_solution(const Material& m) {
  const gen::UnitSolution bytes = solve(m, false);
  const gen::UnitSolution nibbles = solve(m, true);
  REQUIRE(bytes.materials == nibbles.materials);
  CHECK(bytes.rounds == nibbles.rounds);
  for (std::size_t t = 0; t < bytes.materials.size(); ++t) {
    const PositionIndex index(bytes.materials[t]);
    std::uint64_t mismatches = 0, decided = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Wdl v = bytes.values[t]->value(i);
      const bool same = v == nibbles.values[t]->value(i) &&
                        bytes.values[t]->capture(i) == nibbles.values[t]->capture(i) &&
                        (v == Wdl::Draw || bytes.mtc[t]->get(i) == nibbles.mtc[t]->get(i));
      decided += v != Wdl::Draw;
      if (!same && ++mismatches <= 5)
        FAIL_CHECK(to_fen(index.unrank(i)) << ": bytes " << static_cast<int>(v) << " mtc " << bytes.mtc[t]->get(i)
                                           << ", nibbles " << static_cast<int>(nibbles.values[t]->value(i))
                                           << " mtc " << nibbles.mtc[t]->get(i));
    }
    CHECK(mismatches == 0);
    CHECK(decided > 0);  // a comparison of draws only would prove little
  }
}

}  // namespace

TEST_CASE("compact states solve every kings-only unit up to 5 pieces as the byte states do") {
  for (const char* name : {"KvK", "KKvK", "KKvKK", "KKKvK", "KKKKvK", "KKKvKK"}) {
    INFO(name);
    expect_same_solution(*parse_material(name));
  }
}

TEST_CASE("compact states: one thread gives the same values and MTC as two") {
  const Material m = *parse_material("KKKvK");
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  gen::UnitSolution one = solve(m, true);
  omp_set_num_threads(std::max(threads, 2));
  gen::UnitSolution two = solve(m, true);
  omp_set_num_threads(threads);
  for (std::size_t t = 0; t < one.materials.size(); ++t) {
    CHECK(one.values[t]->value_bytes().size() == two.values[t]->value_bytes().size());
    CHECK(std::equal(one.values[t]->value_bytes().begin(), one.values[t]->value_bytes().end(),
                     two.values[t]->value_bytes().begin()));
    CHECK(std::equal(one.mtc[t]->bytes().begin(), one.mtc[t]->bytes().end(), two.mtc[t]->bytes().begin()));
  }
}

TEST_CASE("compact states refuse a unit with men") {
  gen::UnitSolution solution;
  gen::SolveOptions options;
  options.compact_states = true;
  CHECK_THROWS_AS(gen::solve_unit(*parse_material("KMvK"), gen::testing::test_store(), nullptr, solution, options),
                  std::logic_error);
}
