// dtb_probe_mtc against an explicit game ("an explicit-game
// minimax with no index and no tables agrees with MTC on samples of 4 and 5
// pieces"). From a sampled position, every position that king moves of
// either side reach keeps the men where they are: that set S is closed under
// the moves that do not convert, and a man move or a capture leaves it at
// cost 1 whatever follows. So MTC on S is a game on an explicit graph, solved
// here by synchronous sweeps over the definition (k = 0, 1, ...: a win gets
// MTC k once one of its win-keeping moves costs at most k, a loss once all
// its moves do), with no index, no solver rounds and no MTC table; only the
// win/draw/loss of each position comes from the .wdl tables (checked by the
// naive solver and by dtb verify elsewhere). Every won or lost position of S
// must probe at exactly that MTC.
//
// In the suite: samples of every 3- and 4-piece material with men, from the
// 2-4 piece fixture. By hand, on a 2-5 piece set built with --mtc:
//   DTB_MTC5_TABLES=T5 build/tests/test_probe "[.mtc5]"
// samples every 5-piece material whose king placements per men configuration
// stay small enough to sweep (at most three kings).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "dtb/dtb.h"
#include "index/material.h"
#include "index/position_index.h"
#include "probe_test_support.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "tests/support/position_hash.h"

namespace dtb::test {
namespace {

dtb_wdl probe_wdl(dtb_tables* tables, const Position& p) {
  const dtb_position c = c_position(p);
  dtb_wdl wdl = DTB_DRAW;
  dtb_error error{};
  if (dtb_probe_wdl(tables, &c, &wdl, &error) != DTB_OK)
    throw std::runtime_error(to_fen(p) + ": " + error.message);
  return wdl;
}

bool converts(const Position& p, const Move& m) { return m.is_capture() || !(p.kings & (Bitboard{1} << m.from)); }

// One position of S: its value and the moves that matter for its MTC.
struct Node {
  Position p;
  dtb_wdl wdl;
  int conversions = 0;               // moves that convert (cost 1), win-keeping ones for a win
  std::vector<std::size_t> king_moves;  // positions of S reached by the other moves that matter
};

struct Sweep {
  std::size_t positions = 0, decided = 0, mismatches = 0;
  int longest = 0;
};

// S from `start`, its MTC by sweeps, compared with the probe. Adds into `sweep`.
void check_closure(dtb_tables* tables, const Position& start, Sweep& sweep) {
  std::vector<Node> nodes;
  std::unordered_map<Position, std::size_t, PositionHash> at;
  std::vector<std::vector<Position>> reached;  // per node: positions its relevant king moves reach
  const auto add = [&](const Position& p) {
    const auto [it, fresh] = at.emplace(p, nodes.size());
    if (fresh) nodes.push_back({p, probe_wdl(tables, p), 0, {}});
    return it->second;
  };
  add(start);
  for (std::size_t i = 0; i < nodes.size(); ++i) {  // breadth first: nodes grows as it goes
    const Position p = nodes[i].p;
    const dtb_wdl v = nodes[i].wdl;
    MoveList moves;
    generate_moves(p, moves);
    std::vector<std::size_t> next;
    int conversions = 0;
    for (const Move& mv : moves) {
      const Position after = make_move(p, mv);
      if (converts(p, mv)) {
        // A win counts only the conversions that keep it; a loss has only losing moves.
        if (v != DTB_WIN || (after.pieces(after.side) == 0 || probe_wdl(tables, after) == DTB_LOSS)) ++conversions;
        continue;
      }
      const std::size_t j = add(after);  // every king move stays in S, relevant or not
      if (v != DTB_WIN || nodes[j].wdl == DTB_LOSS) next.push_back(j);
    }
    nodes[i].conversions = conversions;
    nodes[i].king_moves = std::move(next);
  }
  // Sweeps: mtc[i] = -1 until decided.
  std::vector<int> mtc(nodes.size(), -1);
  std::size_t open = 0;
  for (const Node& n : nodes) open += n.wdl != DTB_DRAW;
  for (int k = 0; open > 0; ++k) {
    REQUIRE(k < 1000);  // every decided position converts in finite time
    std::vector<std::size_t> decided;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const Node& n = nodes[i];
      if (n.wdl == DTB_DRAW || mtc[i] >= 0) continue;
      const auto within = [&](std::size_t j) { return mtc[j] >= 0 && 1 + mtc[j] <= k; };
      bool done;
      if (n.wdl == DTB_WIN)
        done = (n.conversions > 0 && k >= 1) || std::any_of(n.king_moves.begin(), n.king_moves.end(), within);
      else
        done = (n.conversions == 0 || k >= 1) && std::all_of(n.king_moves.begin(), n.king_moves.end(), within);
      if (done) decided.push_back(i);
    }
    for (const std::size_t i : decided) mtc[i] = k;  // synchronous: visible from sweep k + 1
    open -= decided.size();
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    ++sweep.positions;
    if (nodes[i].wdl == DTB_DRAW) continue;
    const dtb_position c = c_position(nodes[i].p);
    dtb_wdl wdl = DTB_DRAW;
    int got = -2;
    const dtb_status s = dtb_probe_mtc(tables, &c, &wdl, &got, nullptr);
    ++sweep.decided;
    sweep.longest = std::max(sweep.longest, mtc[i]);
    if ((s != DTB_OK || wdl != nodes[i].wdl || got != mtc[i]) && sweep.mismatches++ < 5)
      UNSCOPED_INFO(to_fen(nodes[i].p) << ": probe " << s << "/" << wdl << "/" << got << ", explicit game "
                                       << nodes[i].wdl << "/" << mtc[i]);
  }
}

// `samples` won or lost positions of m (White to move), each with its closure.
void check_material(dtb_tables* tables, const Material& m, int samples, std::mt19937_64& random, Sweep& sweep) {
  const PositionIndex index(m);
  for (int found = 0, tries = 0; found < samples && tries < 50 * samples; ++tries) {
    const Position p = index.unrank(random() % index.size());
    MoveList moves;
    generate_moves(p, moves);
    if (moves.size == 0 || probe_wdl(tables, p) == DTB_DRAW) continue;
    check_closure(tables, p, sweep);
    ++found;
  }
}

// The materials of `pieces` pieces with men and at most `most_kings` kings.
std::vector<Material> sampled_materials(int pieces, int most_kings) {
  std::vector<Material> out;
  for (const Material& m : materials_in_build_order(pieces))
    if (m.pieces() == pieces && m.men() > 0 && m.white_kings + m.black_kings <= most_kings) out.push_back(m);
  return out;
}

}  // namespace

TEST_CASE("dtb_probe_mtc equals an explicit game over the king moves of sampled 3- and 4-piece positions", "[mtc]") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 64 << 20, &tables, nullptr) == DTB_OK);
  std::mt19937_64 random(20261201);
  Sweep sweep;
  std::size_t materials = 0;
  for (const int pieces : {3, 4})
    for (const Material& m : sampled_materials(pieces, 3)) {
      INFO(m.name());
      check_material(tables, m, pieces == 3 ? 6 : 3, random, sweep);
      ++materials;
    }
  CHECK(sweep.mismatches == 0);
  CHECK(materials == 32);      // 3 pieces: 10 with men; 4 pieces: 22 with men and at most three kings
  CHECK(sweep.decided > 1000);
  CHECK(sweep.longest > 3);    // closures hold king manoeuvres, not only conversions
  dtb_close(tables);
}

TEST_CASE("dtb_probe_mtc equals an explicit game over the king moves of sampled 5-piece positions", "[.mtc5]") {
  const char* dir = std::getenv("DTB_MTC5_TABLES");
  REQUIRE(dir);  // a 2-5 piece set built with dtb gen --mtc
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(dir, 256 << 20, &tables, nullptr) == DTB_OK);
  std::mt19937_64 random(20261201);
  Sweep sweep;
  const std::vector<Material> materials = sampled_materials(5, 3);
  for (const Material& m : materials) {
    INFO(m.name());
    check_material(tables, m, 2, random, sweep);
  }
  CHECK(sweep.mismatches == 0);
  WARN(materials.size() << " five-piece materials, " << sweep.positions << " positions swept, " << sweep.decided
                        << " won or lost compared, longest MTC " << sweep.longest);
  dtb_close(tables);
}

}  // namespace dtb::test
