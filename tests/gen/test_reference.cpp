// The fast solver against the naive reference solver, position by position.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "rules/notation.h"
#include "tests/gen/reference_solver.h"
#include "tests/gen/test_tables.h"

using namespace dtb;

namespace {

// Every material with exactly n pieces, fewer men first: a promotion adds a
// king and removes a man, so this order has every dependency solved first.
std::vector<Material> materials_with(int n) {
  std::vector<Material> out;
  for (int wk = 0; wk <= n; ++wk)
    for (int wm = 0; wk + wm <= n; ++wm)
      for (int bk = 0; wk + wm + bk <= n; ++bk) {
        const int bm = n - wk - wm - bk;
        if (wk + wm == 0 || bk + bm == 0) continue;
        out.push_back(Material{std::uint8_t(wk), std::uint8_t(wm), std::uint8_t(bk), std::uint8_t(bm)});
      }
  std::stable_sort(out.begin(), out.end(), [](const Material& a, const Material& b) { return a.men() < b.men(); });
  return out;
}

// Compare every position of a reference table with the generator's store.
void expect_agreement(const reference::ReferenceTable& ref, const gen::WdlStore& store) {
  std::uint64_t compared = 0;
  for (Color side : {Color::White, Color::Black})
    for (const Position& p : ref.positions(side)) {
      const Wdl fast = store.value(p);
      if (static_cast<std::uint8_t>(fast) != ref.raw(p)) {
        FAIL(ref.material().name() << ": " << to_fen(p) << " generator says " << to_string(fast)
                                   << ", reference says " << to_string(static_cast<Wdl>(ref.raw(p))));
      }
      ++compared;
    }
  CHECK(compared == 2 * PositionIndex(ref.material()).size());
}

}  // namespace

TEST_CASE("the generator agrees with the reference solver on every material up to 3 pieces") {
  const gen::WdlStore& store = gen::testing::test_store();
  std::map<Material, reference::ReferenceTable> solved;
  auto oracle = [&](const Position& p) {
    const auto it = solved.find(material_of(p));
    if (it == solved.end()) throw std::logic_error("reference dependency missing: " + material_of(p).name());
    return static_cast<Wdl>(it->second.raw(p));
  };
  for (int n = 2; n <= 3; ++n)
    for (const Material& m : materials_with(n)) {
      INFO(m.name());
      auto table = reference::solve_material(m, oracle);
      expect_agreement(table, store);
      solved.emplace(m, std::move(table));
    }
}
