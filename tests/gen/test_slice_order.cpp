// The slice order (solver/slice_order.h) is a topological order of the moves:
// exhaustively over every position of the small materials, a move that stays
// in the unit stays in its level (king moves) or goes exactly one level up
// (man moves), and the king-move predecessors of a level are in that level.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "gen/cost_model.h"
#include "solver/slice_order.h"
#include "solver/unit_solver.h"
#include "solver/unmove.h"
#include "index/colour.h"
#include "rules/movegen.h"
#include "tests/index/index_test_helpers.h"

using namespace dtb;

namespace {

int level_of(const PositionIndex& index, std::uint64_t i) {
  const auto [white, black] = index.unrank_men(index.slice_of(i));
  return gen::advancement(white, black);
}

// The level of a position of the unit of `m` with either side to move, in
// the unit's tables (White to move: M; Black to move: the colour reversal in
// reversed(M)).
int level_in_unit(const PositionIndex& m, const PositionIndex& reversed, const Position& p) {
  const Position w = p.side == Color::White ? p : colour_reversed(p);
  const PositionIndex& index = material_of(w) == m.material() ? m : reversed;
  return level_of(index, index.rank(w));
}

}  // namespace

TEST_CASE("advancement counts the rows the men have advanced") {
  // A white man on 46 (row 10) has advanced 0 rows, on 6 (row 2) 8 rows.
  CHECK(gen::advancement(square_bb(46), 0) == 0);
  CHECK(gen::advancement(square_bb(6), 0) == 8);
  CHECK(gen::advancement(0, square_bb(3)) == 0);
  CHECK(gen::advancement(0, square_bb(45)) == 8);
  CHECK(gen::advancement(square_bb(28), square_bb(23)) == (10 - 6) + (5 - 1));
  // Colour reversal (rotate the board, swap colours) keeps it.
  CHECK(gen::advancement(rotate_bb(square_bb(23)), rotate_bb(square_bb(28))) ==
        gen::advancement(square_bb(28), square_bb(23)));
}

TEST_CASE("slice levels hold every slice once, in order, with the right advancement") {
  for (int n = 2; n <= 4; ++n)
    for (const Material& m : test::materials_with(n)) {
      INFO(m.name());
      const PositionIndex index(m);
      const gen::SliceLevels levels(index);
      REQUIRE(levels.levels() == gen::max_advancement(m) + 1);
      std::set<std::uint32_t> seen;
      std::uint64_t positions = 0;
      for (int a = 0; a < levels.levels(); ++a) {
        const auto slices = levels.level(a);
        positions += levels.positions(a);
        for (std::size_t k = 0; k < slices.size(); ++k) {
          if (k > 0) REQUIRE(slices[k - 1] < slices[k]);
          const auto [white, black] = index.unrank_men(slices[k]);
          REQUIRE(gen::advancement(white, black) == a);
          REQUIRE(levels.ordinal(a, slices[k]) == k);
          REQUIRE(seen.insert(slices[k]).second);
        }
      }
      CHECK(seen.size() == index.slice_count());
      const auto counted = gen::positions_by_advancement(m);  // without listing the slices
      REQUIRE(counted.size() == static_cast<std::size_t>(levels.levels()));
      for (int a = 0; a < levels.levels(); ++a) CHECK(counted[static_cast<std::size_t>(a)] == levels.positions(a));
      CHECK(positions == index.size());
    }
}

TEST_CASE("every move inside a unit keeps the level (kings) or raises it by one (men)") {
  MoveList moves;
  for (int n = 2; n <= 4; ++n)
    for (const Material& m : test::materials_with(n)) {
      if (m.men() == 0) continue;  // one level: nothing to order
      INFO(m.name());
      const PositionIndex index(m), reversed(m.reversed());
      const std::uint64_t step = n == 4 ? 3 : 1;  // 4 pieces: every 3rd position (still millions of moves)
      std::uint64_t checked = 0, wrong = 0, first_wrong = 0;
      for (std::uint64_t i = 0; i < index.size(); i += step) {
        const Position p = index.unrank(i);
        const int level = level_of(index, i);
        bool ok = true;
        generate_moves(p, moves);
        for (const Move& mv : moves) {
          const Position after = make_move(p, mv);
          if (material_of(after) != m) continue;  // capture or promotion: another, finished material
          const bool king_move = (p.kings & (Bitboard{1} << mv.from)) != 0;
          ok &= level_in_unit(index, reversed, after) == level + (king_move ? 0 : 1);
          ++checked;
        }
        // The solver's king un-moves land in the same level of the other table.
        gen::for_each_king_predecessor(colour_reversed(p), [&](const Position& before) {
          ok &= level_in_unit(index, reversed, before) == level;
          ++checked;
        });
        if (!ok && wrong++ == 0) first_wrong = i;
      }
      INFO("first position out of order: index " << first_wrong);
      CHECK(wrong == 0);
      CHECK(checked > 0);
    }
}

TEST_CASE("unit_memory counts the packed values and the largest level") {
  const Material m = *parse_material("KMvKK");  // and KKvKM
  const std::uint64_t positions = PositionIndex(m).size() + PositionIndex(m.reversed()).size();
  const gen::UnitMemory u = gen::unit_memory(m);
  CHECK(u.values >= positions * 3 / 8);
  CHECK(u.level_state > 0);
  CHECK(u.level_state < positions / 2);  // a level is a fraction of the unit
  CHECK(u.total() < positions);          // far less than a byte a position of the unit
}

TEST_CASE("a kings-only unit is one level and needs its states or its values, not both") {
  const Material m = *parse_material("KKKvKK");  // and KKvKKK
  const std::uint64_t positions = PositionIndex(m).size() + PositionIndex(m.reversed()).size();
  const gen::UnitMemory u = gen::unit_memory(m);
  CHECK(u.one_level);
  CHECK(u.level_state >= positions);  // a byte a position: the whole unit is one level
  CHECK(u.total() < u.values + u.level_state + u.writer);
  CHECK(u.total() >= u.level_state);
  CHECK(u.total() <= u.slice_lists + u.level_state + (std::uint64_t{16} << 20));
  CHECK_FALSE(gen::unit_memory(*parse_material("KKMvK")).one_level);
}

TEST_CASE("compact slice levels list every level as the listed form does, in any order of asking") {
  for (const char* name : {"MMvMM", "KMvMM", "MMMvMM", "KMMvKM"}) {
    INFO(name);
    const PositionIndex index(*parse_material(name));
    const gen::SliceLevels listed(index, gen::SliceLevels::Form::Listed);
    const gen::SliceLevels compact(index, gen::SliceLevels::Form::Compact);
    REQUIRE(!listed.compact());
    REQUIRE(compact.compact());
    REQUIRE(compact.levels() == listed.levels());
    CHECK(compact.memory_bytes() < listed.memory_bytes());
    const auto same = [&](int a) {
      const auto l = listed.level(a), c = compact.level(a);
      return compact.positions(a) == listed.positions(a) && std::equal(l.begin(), l.end(), c.begin(), c.end());
    };
    for (int a = listed.levels() - 1; a >= 0; --a) {  // as the solver asks: from the top, a level at a time
      CHECK(same(a));
      if (a + 1 < listed.levels()) CHECK(same(a + 1));  // still kept, or made again
    }
    for (int a = 0; a < listed.levels(); a += 3) CHECK(same(a));
  }
}
