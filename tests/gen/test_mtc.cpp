// Moves to conversion: the solver's MTC policy against an explicit
// reference that uses no index, no solver rounds and no tables of MTC.
//
// The reference: every position of a material, both sides to move, as an
// explicit list of moves, each either a conversion (a capture or a man move:
// cost 1) or a king move (cost 1 + MTC of the position reached). Synchronous
// sweeps k = 0, 1, 2, ...: a won position gets MTC k once one of its winning
// moves costs at most k with the values of earlier sweeps; a lost one once
// all its moves do (k = 0: no move at all). So each value is the minimax
// over exactly the definition, never a round of the solver.
#include <catch2/catch.hpp>

#include <algorithm>
#include <unordered_map>

#include "solver/unit_solver.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "tests/reference/reference_solver.h"
#include "tests/support/every_position.h"
#include "tests/gen/test_tables.h"
#include "tests/support/position_hash.h"

using namespace dtb;

namespace {

using Oracle = reference::Oracle;

// Value for the side to move, a side without pieces having lost (RULES 7.2).
Wdl value_of(const Position& p, const Oracle& wdl) {
  return p.pieces(p.side) == 0 ? Wdl::Loss : wdl(p);
}

// MTC of every won or lost position of material m (both sides to move).
std::unordered_map<Position, int, test::PositionHash> reference_mtc(const Material& m, const Oracle& wdl) {
  struct Node {
    Position p;
    bool win;
    int conversions = 0;             // relevant conversion moves (cost 1)
    std::vector<Position> king_moves;  // relevant king moves: positions reached
  };
  std::vector<Node> open;
  for (Color side : {Color::White, Color::Black}) {
    const reference::ReferenceTable table(m);
    for (const Position& p : table.positions(side)) {
      const Wdl v = value_of(p, wdl);
      if (v == Wdl::Draw) continue;
      Node n{p, v == Wdl::Win, 0, {}};
      MoveList moves;
      generate_moves(p, moves);
      for (const Move& mv : moves) {
        const Position after = make_move(p, mv);
        // A win keeps only the moves that keep the win; a loss has only losing moves.
        if (n.win && value_of(after, wdl) != Wdl::Loss) continue;
        const bool man_move = ((p.men_of(p.side) >> mv.from) & 1) != 0;
        if (mv.is_capture() || man_move)
          ++n.conversions;
        else
          n.king_moves.push_back(after);
      }
      open.push_back(std::move(n));
    }
  }
  std::unordered_map<Position, int, test::PositionHash> mtc;
  for (int k = 0; !open.empty(); ++k) {
    REQUIRE(k < 1000);  // every win converts in finite time, or the reference is wrong
    std::vector<Node> still;
    std::vector<std::pair<Position, int>> decided;
    for (Node& n : open) {
      auto cost_within = [&](const Position& q) {
        const auto it = mtc.find(q);
        return it != mtc.end() && 1 + it->second <= k;
      };
      bool done;
      if (n.win)
        done = (n.conversions > 0 && k >= 1) || std::any_of(n.king_moves.begin(), n.king_moves.end(), cost_within);
      else
        done = (n.conversions == 0 || k >= 1) && std::all_of(n.king_moves.begin(), n.king_moves.end(), cost_within);
      if (done)
        decided.emplace_back(n.p, k);
      else
        still.push_back(std::move(n));
    }
    for (const auto& [p, v] : decided) mtc.emplace(p, v);  // synchronous: visible from sweep k + 1
    open.swap(still);
  }
  return mtc;
}

// Solve m's unit with the MTC policy and compare every won or lost position.
void expect_mtc_agreement(const Material& m, const Oracle& wdl) {
  const gen::WdlStore& store = gen::testing::test_store();
  gen::UnitSolution solution;
  gen::SolveOptions with_mtc;
  with_mtc.mtc = true;
  REQUIRE(gen::solve_unit(m, store, nullptr, solution, with_mtc) == gen::SolveStatus::Ok);
  REQUIRE(solution.mtc.size() == solution.materials.size());
  const auto expected = reference_mtc(m, wdl);
  std::uint64_t compared = 0, mismatches = 0, wdl_changed = 0;
  int longest = 0;
  for (const auto& [p, plies] : expected) {
    // With Black to move, p is the colour reversal of a position of reversed(m).
    const Position w = p.side == Color::White ? p : colour_reversed(p);
    const Material t = material_of(w);
    const auto k = static_cast<std::size_t>(std::find(solution.materials.begin(), solution.materials.end(), t) -
                                            solution.materials.begin());
    REQUIRE(k < solution.materials.size());
    const std::uint64_t i = PositionIndex(t).rank(w);
    const int got = solution.mtc[k]->get(i);
    wdl_changed += solution.values[k]->value(i) != value_of(w, wdl);  // the MTC policy leaves WDL alone
    if (got != plies && ++mismatches <= 5) FAIL_CHECK(to_fen(p) << ": solver " << got << ", reference " << plies);
    longest = std::max(longest, plies);
    ++compared;
  }
  CHECK(mismatches == 0);
  CHECK(wdl_changed == 0);
  CHECK(compared > 0);
  // The solver's round count is the largest MTC plus one (unit_solver.h).
  CHECK(solution.rounds == longest + 1);
}

}  // namespace

TEST_CASE("MTC of every position up to 3 pieces equals the explicit reference") {
  const auto& solved = reference::reference_up_to_3();
  const Oracle wdl = reference::oracle_of(solved);
  for (int n = 2; n <= 3; ++n)
    for (const Material& m : test::materials_with(n)) {
      if (m.reversed() < m && !m.symmetric()) continue;  // the unit of m is solved with its reversal
      INFO(m.name());
      expect_mtc_agreement(m, wdl);
    }
}

TEST_CASE("MTC of 4-piece materials equals the explicit reference") {
  // Win/draw/loss from the generator's tables (checked against the naive
  // solver and by dtb verify elsewhere): the reference re-derives only MTC.
  const gen::WdlStore& store = gen::testing::test_store();
  const Oracle wdl = [&store](const Position& p) { return store.value(p); };
  for (const char* name : {"KKKvK", "KMvKM", "KKMvK", "MMvKM"}) {
    INFO(name);
    expect_mtc_agreement(*parse_material(name), wdl);
  }
}
