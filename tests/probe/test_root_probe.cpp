// dtb_probe_root against the per-move calls it gathers: for samples of every
// 2-4 piece material and several counts, each root move must carry what
// dtb_make_move followed by dtb_probe_wdl, dtb_probe_mtc, dtb_probe_counted
// and dtb_counts_after say of it; the moves must come in the order dtb.h
// documents; and the first must be the move dtb_best_move plays. Also the
// counted calls against the deprecated calls they replace.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <string>
#include <tuple>
#include <vector>

#include "dtb/dtb.h"
#include "index/material.h"
#include "probe_test_support.h"

namespace dtb::test {
namespace {

dtb_wdl for_mover(dtb_wdl after) { return static_cast<dtb_wdl>(2 - static_cast<int>(after)); }

std::string fen_of(const dtb_position& pos) {
  char fen[256];
  return dtb_position_to_fen(&pos, fen, sizeof fen) == DTB_OK ? fen : "?";
}

bool same_move(const dtb_move& a, const dtb_move& b) {
  return a.from == b.from && a.to == b.to && a.captured == b.captured;
}

bool is_king(const dtb_position& pos, int square) { return (pos.kings >> (square - 1)) & 1u; }

std::vector<dtb_move> legal_moves(const dtb_position& pos) {
  std::vector<dtb_move> moves(128);
  std::size_t n = 0;
  REQUIRE(dtb_legal_moves(&pos, moves.data(), moves.size(), &n, nullptr) == DTB_OK);
  moves.resize(n);
  return moves;
}

std::vector<dtb_root_move> root(dtb_tables* t, const dtb_position& pos, const dtb_counts* counts) {
  std::vector<dtb_root_move> moves(128);
  std::size_t n = 0;
  dtb_error e{};
  INFO(fen_of(pos));
  REQUIRE(dtb_probe_root(t, &pos, counts, moves.data(), moves.size(), &n, &e) == DTB_OK);
  moves.resize(n);
  return moves;
}

// The class count as dtb_counts defines it: never below the 6.2 count, the
// 6.2 count when not counted; DTB_NOT_COUNTED outside the classes.
int class_count(const dtb_position& pos, const dtb_counts& c) {
  if (dtb_class_limit(&pos) == 0) return DTB_NOT_COUNTED;
  return std::max(c.plies_in_class, c.plies_since_conversion);
}

// The mover's value under the rules, from the position after the move.
dtb_wdl expected_counted(dtb_tables* t, const dtb_position& pos, const dtb_position& after, dtb_wdl wdl,
                         const dtb_counts& c, const dtb_counts& next) {
  const int limit = dtb_class_limit(&pos);
  const bool ran_out = limit > 0 && class_count(pos, c) >= limit;
  std::size_t replies = 0;
  dtb_legal_moves(&after, nullptr, 0, &replies, nullptr);
  if (replies == 0) return ran_out ? DTB_DRAW : wdl;  // the move ends the game
  if (ran_out || next.plies_since_conversion == 50) return DTB_DRAW;
  dtb_wdl v = DTB_DRAW;
  const dtb_status s = dtb_probe_counted(t, &after, &next, &v, nullptr);
  if (s == DTB_TABLE_MISSING || s == DTB_NOT_EXACT) return DTB_UNKNOWN_WDL;
  REQUIRE(s == DTB_OK);
  return for_mover(v);
}

// What the per-move calls say of `move`, in the root probe's form.
dtb_root_move expected(dtb_tables* t, const dtb_position& pos, const dtb_move& move, const dtb_counts* c) {
  dtb_root_move r{move, DTB_UNKNOWN, DTB_UNKNOWN_WDL, {DTB_NOT_COUNTED, DTB_NOT_COUNTED}};
  dtb_position after;
  REQUIRE(dtb_make_move(&pos, &move, &after) == DTB_OK);
  dtb_wdl v = DTB_DRAW;
  REQUIRE(dtb_probe_wdl(t, &after, &v, nullptr) == DTB_OK);
  r.move.wdl = for_mover(v);
  if (r.move.wdl != DTB_DRAW) {
    int mtc = -1;
    const bool converts = move.captured != 0 || !is_king(pos, move.from);
    if (!converts) REQUIRE(dtb_probe_mtc(t, &after, &v, &mtc, nullptr) == DTB_OK);
    r.mtc = converts ? 1 : 1 + mtc;
  }
  if (!c) return r;
  REQUIRE(dtb_counts_after(&pos, &move, c->plies_since_conversion, class_count(pos, *c),
                           &r.counts_after.plies_since_conversion, &r.counts_after.plies_in_class) == DTB_OK);
  r.counted_wdl = expected_counted(t, pos, after, r.move.wdl, *c, r.counts_after);
  return r;
}

// The documented order as a key, smaller first: value, then among wins the
// counted win and the least MTC, among losses the greatest MTC.
std::tuple<int, int, int> order_key(const dtb_root_move& r) {
  const int value = -static_cast<int>(r.move.wdl);
  if (r.move.wdl == DTB_WIN)
    return {value, r.counted_wdl == DTB_WIN ? 0 : 1, r.mtc == DTB_UNKNOWN ? INT_MAX : r.mtc};
  if (r.move.wdl == DTB_LOSS) return {value, 0, r.mtc == DTB_UNKNOWN ? INT_MAX : -r.mtc};
  return {value, 0, 0};
}

std::size_t legal_index(const std::vector<dtb_move>& legal, const dtb_move& m) {
  return static_cast<std::size_t>(
      std::find_if(legal.begin(), legal.end(), [&](const dtb_move& l) { return same_move(l, m); }) - legal.begin());
}

// Whether step 2 of the order (the counted win first) separated the wins.
bool counted_wins_split(const std::vector<dtb_root_move>& moves) {
  int counted = 0, wins = 0;
  for (const dtb_root_move& r : moves) {
    wins += r.move.wdl == DTB_WIN;
    counted += r.move.wdl == DTB_WIN && r.counted_wdl == DTB_WIN;
  }
  return counted > 0 && counted < wins;
}

void check_fields(dtb_tables* t, const dtb_position& pos, const dtb_counts* c,
                  const std::vector<dtb_root_move>& moves, const std::vector<dtb_move>& legal) {
  dtb_wdl best = DTB_LOSS;
  for (const dtb_root_move& r : moves) best = std::max(best, r.move.wdl);
  for (const dtb_root_move& r : moves) {
    REQUIRE(legal_index(legal, r.move) < legal.size());
    const dtb_root_move e = expected(t, pos, r.move, c);
    CHECK(r.move.wdl == e.move.wdl);
    CHECK(r.move.keeps_best == (r.move.wdl == best));
    CHECK(r.mtc == e.mtc);
    CHECK(r.counted_wdl == e.counted_wdl);
    CHECK(r.counts_after.plies_since_conversion == e.counts_after.plies_since_conversion);
    CHECK(r.counts_after.plies_in_class == e.counts_after.plies_in_class);
  }
}

void check_order(const std::vector<dtb_root_move>& moves, const std::vector<dtb_move>& legal) {
  for (std::size_t i = 1; i < moves.size(); ++i) {
    const auto before = std::make_tuple(order_key(moves[i - 1]), legal_index(legal, moves[i - 1].move));
    const auto after = std::make_tuple(order_key(moves[i]), legal_index(legal, moves[i].move));
    CHECK(before < after);
  }
}

void check_first_move(dtb_tables* t, const dtb_position& pos, const dtb_counts* c,
                      const std::vector<dtb_root_move>& moves) {
  dtb_move best{};
  const dtb_status s = dtb_best_move(t, &pos, &best, nullptr);
  if (moves.empty()) {
    CHECK(s == DTB_GAME_OVER);
    return;
  }
  REQUIRE(s == DTB_OK);
  if (!c || !counted_wins_split(moves)) CHECK(same_move(moves[0].move, best));
  // Outside the classes the counted best move takes the least MTC among the
  // counted wins, as step 3 does (no 2-4 piece table has an .r62 table).
  if (c && dtb_class_limit(&pos) == 0 && moves[0].counted_wdl == DTB_WIN) {
    REQUIRE(dtb_best_move_counted(t, &pos, c, &best, nullptr) == DTB_OK);
    CHECK(same_move(moves[0].move, best));
  }
}

void check_root(dtb_tables* t, const dtb_position& pos, const dtb_counts* c) {
  INFO(fen_of(pos) << " counts " << (c ? std::to_string(c->plies_since_conversion) + "/" +
                                              std::to_string(c->plies_in_class)
                                        : std::string("none")));
  const std::vector<dtb_move> legal = legal_moves(pos);
  const std::vector<dtb_root_move> moves = root(t, pos, c);
  REQUIRE(moves.size() == legal.size());
  check_fields(t, pos, c, moves, legal);
  check_order(moves, legal);
  check_first_move(t, pos, c, moves);
}

// The counts to try for `pos`: the 6.2 counts, and in a class some class
// counts below, at and past its limit.
std::vector<dtb_counts> counts_for(const dtb_position& pos) {
  std::vector<dtb_counts> counts;
  for (const int since : {0, 20, 49}) counts.push_back({since, DTB_NOT_COUNTED});
  if (const int limit = dtb_class_limit(&pos); limit > 0)
    for (const int in_class : {3, limit - 1, limit}) counts.push_back({0, in_class});
  return counts;
}

// `per_side` positions spread over `name`'s positions with each side to move.
std::vector<dtb_position> sample(const std::string& name, std::uint64_t per_side) {
  std::uint64_t size = 0;
  REQUIRE(dtb_material_size(name.c_str(), &size, nullptr) == DTB_OK);
  std::vector<dtb_position> out;
  for (const dtb_side side : {DTB_WHITE, DTB_BLACK}) {
    for (std::uint64_t k = 0; k < per_side; ++k) {
      dtb_position p;
      REQUIRE(dtb_material_positions(name.c_str(), side, (k * 7919 + 13) % size, &p, 1, nullptr) == DTB_OK);
      out.push_back(p);
    }
  }
  return out;
}

struct Opened {
  dtb_tables* t = nullptr;
  explicit Opened(const std::string& dir) { REQUIRE(dtb_open(dir.c_str(), 32u << 20, &t, nullptr) == DTB_OK); }
  ~Opened() { dtb_close(t); }
};

void check_materials(dtb_tables* t, int max_pieces, std::uint64_t per_side) {
  for (const Material& m : materials_in_build_order(max_pieces)) {
    for (const dtb_position& pos : sample(m.name(), per_side)) {
      check_root(t, pos, nullptr);
      for (const dtb_counts& c : counts_for(pos)) check_root(t, pos, &c);
    }
  }
}

}  // namespace

TEST_CASE("dtb_probe_root gives every move the values of the per-move probes, best first") {
  Opened h(mtc_tables_dir());
  check_materials(h.t, 4, 40);
}

TEST_CASE("dtb_probe_root gives the class values of the 6.4 materials with their .rule tables") {
  TempDir dir;
  run_gen("--max-pieces 3 --dtw --mtc --threads 2", dir.path());  // .rule tables of every 6.4 material
  Opened h(dir.path());
  check_materials(h.t, 3, 25);
}

TEST_CASE("dtb_probe_root: without .mtc tables the distances are unknown and the call still answers") {
  Opened h(generated_tables_dir());  // .wdl only
  const dtb_position pos = c_fen("W:WK46,28:B3");
  const dtb_counts counts{0, DTB_NOT_COUNTED};
  const std::vector<dtb_root_move> moves = root(h.t, pos, &counts);
  REQUIRE(moves.size() == legal_moves(pos).size());
  for (const dtb_root_move& r : moves) {
    const bool decided = r.move.wdl != DTB_DRAW;
    const bool converts = r.move.captured != 0 || !is_king(pos, r.move.from);
    CHECK(r.move.wdl != DTB_UNKNOWN_WDL);
    CHECK(r.mtc == (decided && converts ? 1 : DTB_UNKNOWN));
    CHECK(r.counted_wdl == (decided ? DTB_UNKNOWN_WDL : DTB_DRAW));  // a draw needs no .mtc table
  }
}

TEST_CASE("dtb_probe_root: capacity, NULL arguments and counts out of range are refused") {
  Opened h(mtc_tables_dir());
  const dtb_position pos = c_fen("W:WK46,28:B3");
  std::size_t n = 0;
  dtb_root_move one[1];
  CHECK(dtb_probe_root(h.t, &pos, nullptr, one, 1, &n, nullptr) == DTB_INVALID_ARGUMENT);
  CHECK(n == legal_moves(pos).size());
  CHECK(dtb_probe_root(h.t, &pos, nullptr, nullptr, 0, nullptr, nullptr) == DTB_INVALID_ARGUMENT);
  const dtb_counts fifty{50, DTB_NOT_COUNTED};
  dtb_root_move many[64];
  CHECK(dtb_probe_root(h.t, &pos, &fifty, many, 64, &n, nullptr) == DTB_INVALID_ARGUMENT);
  const dtb_position lost = c_fen("W:W6:B1");
  CHECK(dtb_probe_root(h.t, &lost, nullptr, many, 64, &n, nullptr) == DTB_OK);
  CHECK(n == 0);
}

TEST_CASE("dtb_probe_counted and dtb_best_move_counted answer as the deprecated calls they replace") {
  Opened h(mtc_tables_dir());
  for (const Material& m : materials_in_build_order(4)) {
    for (const dtb_position& pos : sample(m.name(), 6)) {
      for (const dtb_counts& c : counts_for(pos)) {
        INFO(fen_of(pos) << " counts " << c.plies_since_conversion << "/" << c.plies_in_class);
        dtb_wdl counted = DTB_DRAW, old = DTB_DRAW;
        const dtb_status s = dtb_probe_counted(h.t, &pos, &c, &counted, nullptr);
        CHECK(s == dtb_probe_rules(h.t, &pos, c.plies_since_conversion, c.plies_in_class, &old, nullptr));
        if (s == DTB_OK) CHECK(counted == old);
        dtb_move chosen{}, expected_move{};
        const int in_class = class_count(pos, c);
        const dtb_status b = dtb_best_move_counted(h.t, &pos, &c, &chosen, nullptr);
        const dtb_status d = in_class >= 0 ? dtb_best_move_rule(h.t, &pos, in_class, &expected_move, nullptr)
                                           : dtb_best_move_rules(h.t, &pos, c.plies_since_conversion, &expected_move, nullptr);
        // At the class's limit the rule has drawn the game: no counted move,
        // where the deprecated call still gave one of the count's last ply.
        if (in_class >= dtb_class_limit(&pos) && dtb_class_limit(&pos) > 0) {
          CHECK(b == DTB_INVALID_ARGUMENT);
          continue;
        }
        CHECK(b == d);
        if (b == DTB_OK) CHECK((same_move(chosen, expected_move) && chosen.wdl == expected_move.wdl));
      }
    }
  }
}

}  // namespace dtb::test
