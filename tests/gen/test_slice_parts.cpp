// A level solved in parts (solver/unit_solver.h, solve_slices: what a worker of
// the distributed build does) gives the values and MTC of the whole-unit
// solve, position by position, for any cut of the levels into closed pairs;
// and the slices a part is given as input (solver/slice_order.h,
// man_move_slices) hold every position its legal man moves reach.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "solver/slice_order.h"
#include "solver/unit_solver.h"
#include "index/colour.h"
#include "rules/movegen.h"
#include "tests/support/every_position.h"
#include "tests/gen/test_tables.h"

using namespace dtb;

namespace {

// Copy slice `slice` of one table's values (and MTC) from `from` into `to`.
void copy_slice(const gen::UnitValues& from, const gen::MtcValues* from_mtc, gen::UnitValues& to,
                gen::MtcValues* to_mtc, std::uint64_t slice, std::uint64_t kings_per_slice) {
  gen::UnitValues::Appender out(to);
  for (std::uint64_t i = slice * kings_per_slice; i < (slice + 1) * kings_per_slice; ++i) {
    out.set(i, from.value(i), from.capture(i));
    if (from_mtc && to_mtc) to_mtc->set(i, from_mtc->get(i));
  }
}

// Solve m's unit level by level, each level cut at random into parts of
// closed pairs, each part on fresh arrays holding only its inputs.
gen::UnitSolution solve_in_parts(const Material& m, const gen::FinishedValues& finished, std::mt19937& random) {
  const std::vector<Material> tables = gen::unit_of(m);
  std::vector<PositionIndex> index;
  for (const Material& t : tables) index.emplace_back(t);
  const std::size_t other = tables.size() == 1 ? 0 : 1;
  gen::UnitSolution all;  // what rank 0 keeps
  for (const PositionIndex& ix : index) {
    all.values.push_back(std::make_unique<gen::UnitValues>(ix.size()));
    all.mtc.push_back(std::make_unique<gen::MtcValues>(ix.size()));
  }
  // A worker's arrays, reused for every part as cluster/ does: zero, and
  // cleared again after each part.
  gen::UnitSolution io;
  for (const PositionIndex& ix : index) {
    io.values.push_back(std::make_unique<gen::UnitValues>(ix.size(), gen::UnitValues::Unset{}));
    io.values.back()->clear();
    io.mtc.push_back(std::make_unique<gen::MtcValues>(ix.size()));
  }
  const gen::SliceLevels levels(index[0]);
  for (int a = levels.levels() - 1; a >= 0; --a) {
    // Closed pairs: a slice of the first table and its colour reversal.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    std::set<std::uint32_t> taken;
    for (const std::uint32_t s : levels.level(a)) {
      if (taken.count(s)) continue;
      const auto [white, black] = index[0].unrank_men(s);
      const auto twin = static_cast<std::uint32_t>(index[other].rank_men(rotate_bb(black), rotate_bb(white)));
      pairs.emplace_back(s, twin);
      if (other == 0) taken.insert(twin);
    }
    std::shuffle(pairs.begin(), pairs.end(), random);
    for (std::size_t first = 0; first < pairs.size();) {
      // From one pair to an eighth of the level (a few pairs at least).
      const std::size_t most = std::max<std::size_t>(4, pairs.size() / 8);
      const std::size_t count = 1 + random() % std::min(pairs.size() - first, most);
      std::vector<std::vector<std::uint32_t>> part(tables.size());
      for (std::size_t k = first; k < first + count; ++k) {
        part[0].push_back(pairs[k].first);
        if (other == 1 || pairs[k].second != pairs[k].first) part[other].push_back(pairs[k].second);
      }
      first += count;
      for (auto& list : part) std::sort(list.begin(), list.end());
      // The level + 1 slices the part reads.
      for (std::size_t t = 0; t < tables.size(); ++t) {
        const std::size_t o = tables.size() == 1 ? 0 : 1 - t;
        for (const std::uint32_t s : part[t])
          for (const std::uint32_t next : gen::man_move_slices(index[t], index[o], s))
            copy_slice(*all.values[o], nullptr, *io.values[o], nullptr, next, index[o].kings_per_slice());
      }
      REQUIRE(gen::solve_slices(m, finished, a, part, io) == gen::SolveStatus::Ok);
      all.rounds = std::max(all.rounds, io.rounds);
      for (std::size_t t = 0; t < tables.size(); ++t)
        for (const std::uint32_t s : part[t])
          copy_slice(*io.values[t], io.mtc[t].get(), *all.values[t], all.mtc[t].get(), s, index[t].kings_per_slice());
      for (auto& v : io.values) v->clear();
      for (auto& mtc : io.mtc) mtc->release();
    }
  }
  return all;
}

}  // namespace

TEST_CASE("a unit solved level by level in random parts equals the whole-unit solve") {
  const gen::WdlStore& store = gen::testing::test_store();
  std::mt19937 random(20261201);
  for (int n = 2; n <= 4; ++n)
    for (const Material& m : test::materials_with(n)) {
      if (m.men() == 0 || (n == 4 && random() % 3 != 0)) continue;  // 4 pieces: a third of them
      INFO(m.name());
      gen::UnitSolution whole;
      gen::SolveOptions options;
      options.mtc = true;
      REQUIRE(gen::solve_unit(m, store, nullptr, whole, options) == gen::SolveStatus::Ok);
      const gen::UnitSolution parts = solve_in_parts(m, store, random);
      for (std::size_t t = 0; t < whole.values.size(); ++t) {
        CHECK(*parts.values[t] == *whole.values[t]);
        std::uint64_t differ = 0;
        for (std::uint64_t i = 0; i < whole.values[t]->size(); ++i)
          if (whole.values[t]->value(i) != Wdl::Draw && !whole.values[t]->capture(i))
            differ += parts.mtc[t]->get(i) != whole.mtc[t]->get(i);
        CHECK(differ == 0);
      }
      CHECK(parts.rounds == whole.rounds);
    }
}

TEST_CASE("man_move_slices lists every slice a legal man move reaches") {
  MoveList moves;
  for (int n = 2; n <= 4; ++n)
    for (const Material& m : test::materials_with(n)) {
      if (m.white_men == 0) continue;
      INFO(m.name());
      const PositionIndex index(m), reversed(m.reversed());
      std::uint64_t missing = 0, reached = 0;
      for (std::uint64_t slice = 0; slice < index.slice_count(); slice += n == 4 ? 7 : 1) {
        const std::vector<std::uint32_t> listed =
            gen::man_move_slices(index, reversed, static_cast<std::uint32_t>(slice));
        CHECK(std::is_sorted(listed.begin(), listed.end()));
        for (std::uint64_t i = slice * index.kings_per_slice(); i < (slice + 1) * index.kings_per_slice(); ++i) {
          const Position p = index.unrank(i);
          generate_moves(p, moves);
          for (const Move& mv : moves) {
            const Position after = make_move(p, mv);
            if ((p.kings & (Bitboard{1} << mv.from)) || material_of(after) != m)
              continue;  // king move, capture, promotion
            const std::uint64_t next = reversed.slice_of(reversed.rank(colour_reversed(after)));
            ++reached;
            missing += !std::binary_search(listed.begin(), listed.end(), static_cast<std::uint32_t>(next));
          }
        }
      }
      CHECK(missing == 0);
      CHECK(reached > 0);
    }
}
