// Build order: checked against the move generator, not against the rule that
// produced it. Every capture or promotion found from sample positions must
// lead to a material built earlier (and in an earlier level).
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

#include "index/material.h"
#include "index_test_helpers.h"
#include "rules/movegen.h"

using namespace dtb;

namespace {

bool is_table_material(const Position& p) { return p.white != 0 && p.black != 0; }

}  // namespace

TEST_CASE("build order lists every material once, units adjacent") {
  for (int max = 2; max <= 7; ++max) {
    const auto order = materials_in_build_order(max);
    std::set<Material> unique(order.begin(), order.end());
    std::size_t expected = 0;
    for (int n = 2; n <= max; ++n) expected += test::materials_with(n).size();
    CHECK(order.size() == expected);
    CHECK(unique.size() == expected);
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (order[i].symmetric()) continue;
      const bool before = i > 0 && order[i - 1] == order[i].reversed();
      const bool after = i + 1 < order.size() && order[i + 1] == order[i].reversed();
      CHECK((before || after));
    }
    // The order for fewer pieces is a prefix.
    const auto smaller = materials_in_build_order(max - 1);
    CHECK(std::equal(smaller.begin(), smaller.end(), order.begin()));
  }
  CHECK(materials_in_build_order(1).empty());
  CHECK(build_levels(1).empty());
}

TEST_CASE("levels partition the materials and respect direct dependencies") {
  const auto levels = build_levels(6);
  std::map<Material, std::size_t> level_of;
  for (std::size_t l = 0; l < levels.size(); ++l)
    for (const auto& unit : levels[l]) {
      REQUIRE(!unit.empty());
      CHECK(unit.size() == (unit[0].symmetric() ? 1u : 2u));
      for (const Material& m : unit) CHECK(level_of.emplace(m, l).second);
    }
  CHECK(level_of.size() == materials_in_build_order(6).size());
  for (const auto& [m, l] : level_of)
    for (const Material& dep : direct_dependencies(m)) {
      INFO(m.name() << " depends on " << dep.name());
      CHECK(level_of.at(dep) < l);
    }
  CHECK(level_of.at(Material{1, 0, 1, 0}) == 0);
}

TEST_CASE("every capture and promotion found by the move generator leads to an earlier material") {
  constexpr int kMax = 6;
  const auto order = materials_in_build_order(kMax);
  std::map<Material, std::size_t> position_in_order;
  for (std::size_t i = 0; i < order.size(); ++i) position_in_order[order[i]] = i;
  std::map<Material, std::size_t> level_of;
  const auto levels = build_levels(kMax);
  for (std::size_t l = 0; l < levels.size(); ++l)
    for (const auto& unit : levels[l])
      for (const Material& m : unit) level_of[m] = l;

  std::mt19937_64 rng(99);
  std::size_t conversions = 0, promotions = 0, captures = 0;
  for (const Material& m : order) {
    const std::size_t unit_start = std::min(position_in_order.at(m), position_in_order.at(m.reversed()));
    const auto deps = direct_dependencies(m);
    for (int k = 0; k < 400; ++k) {
      const Position p = test::random_position(m, rng, k % 2 ? Color::Black : Color::White);
      MoveList moves;
      generate_moves(p, moves);
      for (const Move& mv : moves) {
        const Position next = make_move(p, mv);
        const Material reached = material_of(next);
        if (reached == m || reached == m.reversed() || !is_table_material(next)) continue;
        ++conversions;
        if (mv.is_capture()) ++captures;
        if (!mv.is_capture()) ++promotions;  // a quiet move that converts is a promotion
        INFO(m.name() << " -> " << reached.name() << " by " << int(mv.from_square()) << "-"
                      << int(mv.to_square()));
        CHECK(position_in_order.at(reached) < unit_start);
        CHECK(level_of.at(reached) < level_of.at(m));
        CHECK(std::find(deps.begin(), deps.end(), reached) != deps.end());
      }
    }
  }
  // The samples must actually exercise both kinds of conversion.
  CHECK(captures > 1000);
  CHECK(promotions > 100);
}

TEST_CASE("direct dependencies of a few materials") {
  const auto names = [](const Material& m) {
    std::set<std::string> out;
    for (const Material& d : direct_dependencies(m)) out.insert(d.name());
    return out;
  };
  CHECK(names(Material{1, 0, 1, 0}).empty());                       // KvK
  CHECK(names(Material{0, 1, 1, 0}) == std::set<std::string>{"KvK"});  // MvK: promotion only
  // KMvK: White promotes (KKvK); a capture of Black's king ends the game;
  // Black captures the king (MvK) or the man (KvK).
  CHECK(names(Material{1, 1, 1, 0}) == std::set<std::string>{"KKvK", "KvK", "MvK"});
}
