// Article 6.2 solved under the rule (gen/article62_builder.h): the
// generator's rule-aware solve against an explicit game with a move counter.
//
// The reference knows nothing of indexes, levels, rounds or MTC: a state is
// a position and the plies c counted since the last conversion; with a count
// of L plies, a side without a move has lost (RULES 7.2), a state whose count
// has reached L is a draw, and otherwise the value is the best over the moves,
// a conversion (a capture or a man move) reaching c = 0 and a king move
// c + 1. Memoised recursion: c grows along king moves and conversions cannot
// be undone, so it ends. With L = 50 every table up to 5 pieces is exact (MTC
// decides); a small L makes most of them unclean, so conversions into
// positions that the rule draws, in other tables and in the unit's own
// earlier levels, are everywhere: what the rule-aware solve exists for.
#include <catch2/catch.hpp>

#include <omp.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

#include "compress/table_file.h"
#include "gen/checksums.h"
#include "gen/mtc_report.h"
#include "support/progress_bar.h"
#include "verify/article62_verifier.h"
#include "gen/article62_builder.h"
#include "solver/table_loading.h"
#include "gen/table_discovery.h"
#include "gen/table_builder.h"
#include "tests/gen/wdl_store.h"
#include "index/colour.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "probe/capture_check.h"
#include "probe/perfect_play.h"
#include "probe/tablebase.h"
#include "tests/reference/reference_solver.h"
#include "tests/support/every_position.h"
#include "tests/gen/test_tables.h"
#include "tests/support/position_hash.h"
#include "tests/support/table_values.h"

using namespace dtb;

namespace {

constexpr int kMaxCount = 16;

class CountedGame {
 public:
  explicit CountedGame(int plies) : plies_(plies) { REQUIRE(plies <= kMaxCount); }

  Wdl value(const Position& p, int c) {
    std::array<std::int8_t, kMaxCount + 1>& known = memo_.try_emplace(p, unknown()).first->second;  // nodes stay put
    if (known[static_cast<std::size_t>(c)] >= 0) return static_cast<Wdl>(known[static_cast<std::size_t>(c)]);
    MoveList moves;
    generate_moves(p, moves);
    Wdl best = Wdl::Loss;  // also: no move at all
    if (moves.size > 0 && c >= plies_) best = Wdl::Draw;
    for (int k = 0; k < moves.size && c < plies_ && best != Wdl::Win; ++k) {
      const Move& mv = moves[k];
      const bool man_move = ((p.men_of(p.side) >> mv.from) & 1) != 0;
      const int next = mv.is_capture() || man_move ? 0 : c + 1;
      best = std::max(best, negate(value(make_move(p, mv), next)));
    }
    known[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(best);
    return best;
  }

 private:
  static std::array<std::int8_t, kMaxCount + 1> unknown() {
    std::array<std::int8_t, kMaxCount + 1> a;
    a.fill(-1);
    return a;
  }
  int plies_;
  std::unordered_map<Position, std::array<std::int8_t, kMaxCount + 1>, test::PositionHash> memo_;
};

// Every unit up to `pieces` solved under a count of `plies`, in build order,
// each one's conversions valued by the 6.2 values of those before it.
struct RuleChain {
  gen::WdlStore values;                                // 6.2 values from a fresh count
  std::map<Material, std::vector<std::uint8_t>> rounds;  // per table, by index

  RuleChain(int pieces, int plies) : plies_(plies) {
    gen::BuildOptions options;
    options.max_pieces = pieces;
    for (const Material& m : gen::units_to_build(options)) {
      gen::UnitSolution s;
      gen::ProgressBar bar("r62", gen::unit_solve_work(m), false);
      REQUIRE(gen::solve_unit_article62(m, values, plies, &bar, s) == gen::SolveStatus::Ok);
      // `dtb gen --article62` plans unit_solve_work for a unit: the solve
      // reports exactly that (it once planned 2 a position for 3 reported,
      // and the bar stood at 100 % through the last units of a build).
      CHECK(bar.done() == bar.total());
      for (std::size_t k = 0; k < s.materials.size(); ++k) {
        values.add(s.materials[k], *s.values[k]);
        std::vector<std::uint8_t>& r = rounds[s.materials[k]];
        r.resize(s.mtc[k]->size());
        s.mtc[k]->read(0, r);
      }
    }
  }

  // The generator's 6.2 value with c plies counted: its value from a fresh
  // count if the round that decided it is within the plies left.
  Wdl value(const Position& p, int c) const {
    const Position w = white_to_move_form(p);
    if (w.pieces(Color::White) == 0 || w.pieces(Color::Black) == 0) return values.value(p);
    const Material m = material_of(w);
    const std::uint64_t i = PositionIndex(m).rank(w);
    const Wdl fresh = values.value(p);
    return gen::r62_value(fresh, rounds.at(m)[i], plies_) <= plies_ - c ? fresh : Wdl::Draw;
  }

 private:
  int plies_;
};

// Compare `positions` at every count 0..plies-1; returns how many differ.
std::uint64_t compare(const RuleChain& chain, CountedGame& game, const std::vector<Position>& positions, int plies) {
  std::uint64_t mismatches = 0;
  for (const Position& p : positions)
    for (int c = 0; c < plies; ++c) {
      const Wdl expected = game.value(p, c), got = chain.value(p, c);
      if (got != expected && ++mismatches <= 5)
        FAIL_CHECK(to_fen(p) << " with " << c << " plies counted: solver " << to_string(got) << ", reference "
                             << to_string(expected));
    }
  return mismatches;
}

}  // namespace

TEST_CASE("article 6.2 under a short count: the rule-aware solve equals an explicit counted game, 2-3 pieces") {
  for (const int plies : {3, 6, 11}) {
    INFO("count of " << plies << " plies");
    const RuleChain chain(3, plies);
    CountedGame game(plies);
    std::uint64_t positions = 0, mismatches = 0, wins = 0;
    for (int n = 2; n <= 3; ++n)
      for (const Material& m : test::materials_with(n)) {
        const reference::ReferenceTable table(m);
        for (const Color side : {Color::White, Color::Black}) {
          mismatches += compare(chain, game, table.positions(side), plies);
          positions += table.positions(side).size();
          for (const Position& p : table.positions(side)) wins += game.value(p, 0) == Wdl::Win;
        }
      }
    CHECK(mismatches == 0);
    CHECK(positions > 100000);
    CHECK(wins > 1000);  // not a set of draws agreeing with draws
  }
}

// Not in the suite: the counted game from a 4-piece position reaches much of
// the 3- and 4-piece tables through its conversions, a few minutes however
// few the samples. `test_gen "[article62-4]"` (about 4 min; with a count of
// 8 and 150 samples of each of KMvKM, MMvKM, KKMvK, KMvMM, MMvMM and KKvKM,
// about 8 min).
TEST_CASE("article 6.2 under a short count: the rule-aware solve equals an explicit counted game, 4-piece samples",
          "[.][article62-4]") {
  constexpr int plies = 5;
  const RuleChain chain(4, plies);
  CountedGame game(plies);
  std::mt19937_64 random(62);
  std::uint64_t mismatches = 0, compared = 0;
  for (const char* name : {"KMvKM", "MMvKM", "KKMvK", "KKvKM"}) {
    INFO(name);
    const Material m = *parse_material(name);
    const PositionIndex index(m);
    std::vector<Position> sample;
    while (sample.size() < 2 * 20) {
      const Position p = index.unrank(random() % index.size());
      sample.push_back(p);
      sample.push_back(colour_reversed(p));  // Black to move too
    }
    mismatches += compare(chain, game, sample, plies);
    compared += sample.size();
  }
  CHECK(mismatches == 0);
  CHECK(compared == 4 * 40);
}

TEST_CASE("the rule-aware solve draws what the theoretical game wins only where the count runs out") {
  // With a long count nothing changes up to 3 pieces (every conversion there
  // is forced within 22 plies): the 6.2 values from a fresh count are the
  // theoretical ones, and with a short count some wins become draws, never
  // losses, and no draw becomes a decision.
  const auto& solved = reference::reference_up_to_3();
  const reference::Oracle theory = reference::oracle_of(solved);
  std::uint64_t changed_long = 0, drawn_short = 0, wrong_short = 0;
  const RuleChain long_count(3, 50), short_count(3, 4);
  for (int n = 2; n <= 3; ++n)
    for (const Material& m : test::materials_with(n)) {
      const reference::ReferenceTable table(m);
      for (const Position& p : table.positions(Color::White)) {
        const Wdl t = p.pieces(Color::White) == 0 ? Wdl::Loss : theory(p);
        changed_long += long_count.values.value(p) != t;
        const Wdl s = short_count.values.value(p);
        drawn_short += s == Wdl::Draw && t != Wdl::Draw;
        wrong_short += s != Wdl::Draw && s != t;
      }
    }
  CHECK(changed_long == 0);
  CHECK(drawn_short > 0);
  CHECK(wrong_short == 0);
}

namespace {


// The 2-3 piece tables with MTC, KKvK's .mtc rewritten 44 plies longer
// (from a fresh count 6.2 then draws its decisions of true MTC 7 or more),
// and the .r62 tables `dtb gen --article62` then writes, on `threads` threads
// (what that phase did in `phase`, if given).
std::string r62_test_dir(const std::string& tag, int threads, gen::Article62Summary* phase = nullptr) {
  const std::string dir = gen::testing::make_temp_dir(tag);
  gen::BuildOptions options;
  options.max_pieces = 3;
  options.out_dir = dir;
  options.mtc = true;
  gen::BuildSummary summary;
  std::string error;
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  REQUIRE(gen::build_tables(options, summary, error) == gen::BuildStatus::Ok);
  const Material kkvk = *parse_material("KKvK");
  test::rewrite_values(gen::mtc_table_path(dir, kkvk), kkvk, TableKind::Mtc, [](std::vector<std::uint16_t>& v) {
    for (std::uint16_t& x : v) x = static_cast<std::uint16_t>(x > 0 ? x + 44 : 0);
  });
  gen::Article62Summary r62;
  REQUIRE(gen::build_article62_tables(options, r62, error) == gen::BuildStatus::Ok);
  omp_set_num_threads(before);
  REQUIRE(r62.solved.size() >= 2);
  if (phase) *phase = r62;
  return dir;
}

// verify_unit_r62 on the unit of KKvM in `dir`, as `dtb verify` runs it; with
// `value_captures`, every capture position's captures valued as well.
bool verify_kkvm(const std::string& dir, std::string& failure, bool value_captures = false) {
  gen::WdlStore store;
  std::vector<Material> materials;
  std::vector<std::unique_ptr<gen::UnitValues>> owned;
  std::vector<const gen::UnitValues*> values;
  gen::BuildOptions options;
  options.max_pieces = 3;
  for (const Material& u : gen::units_to_build(options))
    for (const Material& t : gen::unit_of(u)) {
      auto v = std::make_unique<gen::UnitValues>(PositionIndex(t).size());
      std::uint64_t bytes = 0;
      REQUIRE(gen::load_checked(dir, t, store, *v, bytes, failure));
      store.add(t, *v);
      if (u == *parse_material("KKvM")) {
        materials.push_back(t);
        values.push_back(v.get());
        owned.push_back(std::move(v));
      }
    }
  std::unique_ptr<probe::Tablebase> base;
  REQUIRE(probe::Tablebase::open(dir, 16u << 20, 0, base, nullptr) == DTB_OK);
  probe::PerfectPlay play(*base);
  std::map<Material, bool> faithful;
  REQUIRE(gen::dependencies_faithful(play, materials.front(), faithful, failure));
  bool captures_keep_values = !value_captures;
  for (const Material& t : materials) captures_keep_values = captures_keep_values && gen::captures_faithful(t, faithful);
  const gen::Article62Exits exits(store, play, std::move(faithful));
  return gen::verify_unit_r62(dir, materials, values, exits, captures_keep_values, nullptr, failure);
}

}  // namespace

TEST_CASE("dtb verify re-derives .r62 values from their successors and catches a wrong one") {
  // As in the probe's test: KKvK's .mtc rewritten 44 plies longer, so that
  // KKvM (Black promotes into KKvK) needs its .r62 tables.
  const std::string dir = r62_test_dir("r62-verify", 2);
  std::string failure;
  CHECK(verify_kkvm(dir, failure));
  CHECK(failure.empty());
  // One decision of KKvM that the rule keeps (2 plies: no quiet position of
  // KKvM converts later), stored one ply shorter.
  const Material kkvm = *parse_material("KKvM");
  test::rewrite_values(gen::r62_table_path(dir, kkvm), kkvm, TableKind::Article62, [](std::vector<std::uint16_t>& v) {
    const auto it = std::find(v.begin(), v.end(), std::uint16_t{2});
    REQUIRE(it != v.end());
    --*it;
  });
  CHECK_FALSE(verify_kkvm(dir, failure));
  CHECK(failure.find("KKvM.r62") != std::string::npos);
}

TEST_CASE("dtb verify checks a capture position's .r62 value without valuing its captures, and catches a wrong one") {
  const std::string dir = r62_test_dir("r62-verify-captures", 2);
  const Material kkvm = *parse_material("KKvM");
  std::map<Material, bool> faithful;
  {
    std::unique_ptr<probe::Tablebase> base;
    REQUIRE(probe::Tablebase::open(dir, 16u << 20, 0, base, nullptr) == DTB_OK);
    probe::PerfectPlay play(*base);
    std::string error;
    REQUIRE(gen::dependencies_faithful(play, kkvm, faithful, error));
  }
  // Every 2-piece table a capture of KKvM leads into keeps its values; KKvK,
  // which Black's promotion leads into, does not (its MTC stretched).
  CHECK(gen::captures_faithful(kkvm, faithful));
  CHECK_FALSE(faithful.at(*parse_material("KKvK")));
  std::string failure;
  CHECK(verify_kkvm(dir, failure, /*value_captures=*/true));
  CHECK(verify_kkvm(dir, failure));
  // A decided capture position of KKvM (a king to capture the man, not a draw)
  // stored 2 instead of 1: caught by the rule for captures, and by valuing them.
  const PositionIndex index(kkvm);
  std::string fen;
  test::rewrite_values(gen::r62_table_path(dir, kkvm), kkvm, TableKind::Article62, [&](std::vector<std::uint16_t>& v) {
    for (std::uint64_t i = 0; i < v.size(); ++i) {
      const Position p = index.unrank(i);
      if (v[i] == 1 && probe::must_capture(p)) {
        v[i] = 2;
        fen = to_fen(p);
        return;
      }
    }
    FAIL("no decided capture position in KKvM.r62");
  });
  INFO(fen);
  CHECK_FALSE(verify_kkvm(dir, failure));
  CHECK(failure.find("KKvM.r62") != std::string::npos);
  CHECK(failure.find("stores 2, its moves imply 1") != std::string::npos);
  CHECK_FALSE(verify_kkvm(dir, failure, /*value_captures=*/true));
}

TEST_CASE("the article 6.2 phase's progress counts the units it solves, not those MTC decides") {
  gen::Article62Summary r62;
  const std::string dir = r62_test_dir("r62-progress", 2, &r62);
  const std::set<Material> counted(r62.counted.begin(), r62.counted.end());
  for (const Material& m : r62.solved) CHECK(counted.count(m));
  // Units that nothing stretched reaches: MTC decides them, they cost no time.
  CHECK_FALSE(counted.count(*parse_material("KvK")));
  CHECK_FALSE(counted.count(*parse_material("MvM")));
  gen::BuildOptions options;
  options.max_pieces = 3;
  CHECK(r62.counted.size() < gen::units_to_build(options).size());
  // A rerun reuses every .r62 table: nothing left to count.
  options.out_dir = dir;
  options.mtc = true;
  gen::Article62Summary again;
  std::string error;
  REQUIRE(gen::build_article62_tables(options, again, error) == gen::BuildStatus::Ok);
  CHECK(again.reused.size() == r62.solved.size());
  CHECK(again.counted.empty());
}

TEST_CASE("the .r62 tables are the same bytes on 1 thread and on 2") {
  const std::string one = r62_test_dir("r62-threads-1", 1), two = r62_test_dir("r62-threads-2", 2);
  std::uint64_t compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(one)) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".r62") && !name.ends_with(".r62-stats")) continue;
    std::uint64_t a = 0, b = 0;
    std::string failure;
    REQUIRE(gen::file_xxh3(one + "/" + name, a, failure));
    REQUIRE(gen::file_xxh3(two + "/" + name, b, failure));
    INFO(name);
    CHECK(a == b);
    ++compared;
  }
  CHECK(compared >= 8);  // KKvM, MvKK, KMvK, KvKM: tables and counts
}
