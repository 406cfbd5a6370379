// One piece more than the tables: captures are compulsory, so a search meets
// positions with a piece or two more than the largest table wherever a
// capture is forced. Those are answered through their captures (WDL, MTC,
// the article 6.2 value, moves, best moves), and must agree at every sampled
// position with a directory that has the table itself; quiet ones and
// positions past the reach keep DTB_TOO_MANY_PIECES.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "probe_test_support.h"
#include "tests/support/temp_dir.h"

namespace dtb::test {
namespace {

constexpr const char* kFivePieces = "KKKvKK";  // its unit: KKKvKK and KKvKKK

// The 2-4 piece tables with .mtc linked in, and five kings (both colourings)
// built beside them with `dtb gen --only KKKvKK --mtc`, once per process.
const std::string& five_piece_dir() {
  static const TempDir dir;
  static const bool built = [] {
    for (const auto& entry : std::filesystem::directory_iterator(mtc_tables_dir()))
      std::filesystem::create_symlink(std::filesystem::absolute(entry.path()),
                                      std::filesystem::path(dir.path()) / entry.path().filename());
    run_gen(std::string("--only ") + kFivePieces + " --mtc --threads 2", dir.path());
    return true;
  }();
  (void)built;
  return dir.path();
}

struct Handle {
  dtb_tables* tables = nullptr;
  explicit Handle(const std::string& dir) { REQUIRE(dtb_open(dir.c_str(), 16u << 20, &tables, nullptr) == DTB_OK); }
  ~Handle() { dtb_close(tables); }
};

bool must_capture(const dtb_position& p) {
  dtb_move moves[128];
  std::size_t count = 0;
  REQUIRE(dtb_legal_moves(&p, moves, 128, &count, nullptr) == DTB_OK);
  return count > 0 && moves[0].captured != 0;
}

// Positions of the five-king material, both sides to move, every stride-th.
std::vector<dtb_position> five_king_positions(bool captures) {
  std::uint64_t size = 0;
  REQUIRE(dtb_material_size(kFivePieces, &size, nullptr) == DTB_OK);
  std::vector<dtb_position> out;
  for (dtb_side side : {DTB_WHITE, DTB_BLACK})
    for (std::uint64_t i = 7; i < size && out.size() < 4000; i += 4093) {
      dtb_position p;
      REQUIRE(dtb_material_positions(kFivePieces, side, i, &p, 1, nullptr) == DTB_OK);
      if (must_capture(p) == captures) out.push_back(p);
    }
  return out;
}

std::string text(const dtb_position& p) {
  char buffer[256];
  REQUIRE(dtb_position_to_fen(&p, buffer, sizeof buffer) == DTB_OK);
  return buffer;
}

}  // namespace

TEST_CASE("a forced capture past the tables gets the value of the tables that include it", "[past-tables]") {
  Handle four(mtc_tables_dir()), five(five_piece_dir());
  REQUIRE(dtb_max_pieces(four.tables) == 4);
  const auto positions = five_king_positions(true);
  REQUIRE(positions.size() > 100);
  for (const dtb_position& p : positions) {
    INFO(text(p));
    dtb_wdl w4, w5;
    REQUIRE(dtb_probe_wdl(four.tables, &p, &w4, nullptr) == DTB_OK);
    REQUIRE(dtb_probe_wdl(five.tables, &p, &w5, nullptr) == DTB_OK);
    CHECK(w4 == w5);
    int m4 = 0, m5 = 0;
    REQUIRE(dtb_probe_mtc(four.tables, &p, &w4, &m4, nullptr) == DTB_OK);
    REQUIRE(dtb_probe_mtc(five.tables, &p, &w5, &m5, nullptr) == DTB_OK);
    CHECK(m4 == m5);
    for (int count : {0, 30, 49}) {
      dtb_error e4{}, e5{};
      const dtb_status s4 = dtb_probe_rules(four.tables, &p, count, -1, &w4, &e4);
      const dtb_status s5 = dtb_probe_rules(five.tables, &p, count, -1, &w5, &e5);
      REQUIRE(s4 == s5);
      if (s4 == DTB_OK) CHECK(w4 == w5);
    }
    dtb_move b4{}, b5{};
    REQUIRE(dtb_best_move(four.tables, &p, &b4, nullptr) == DTB_OK);
    REQUIRE(dtb_best_move(five.tables, &p, &b5, nullptr) == DTB_OK);
    CHECK((b4.from == b5.from && b4.to == b5.to && b4.captured == b5.captured));
  }
}

TEST_CASE("a quiet position past the tables, or one past their reach, is too many pieces", "[past-tables]") {
  Handle four(mtc_tables_dir());
  const auto quiet = five_king_positions(false);
  REQUIRE_FALSE(quiet.empty());
  dtb_wdl w;
  dtb_error e{};
  CHECK(dtb_probe_wdl(four.tables, &quiet.front(), &w, &e) == DTB_TOO_MANY_PIECES);
  CHECK(std::string(e.message).find("no capture") != std::string::npos);
  // Seven pieces, a capture forced: three more than the largest table.
  const dtb_position seven = c_fen("W:W32,K40,K41:B27,K3,K50,K49");
  REQUIRE(must_capture(seven));
  CHECK(dtb_probe_wdl(four.tables, &seven, &w, &e) == DTB_TOO_MANY_PIECES);
  // The position engines meet: one man must take, every capture into 2-4.
  const dtb_position five = c_fen("W:W32,K40:B27,K3,K50");
  CHECK(dtb_probe_wdl(four.tables, &five, &w, &e) == DTB_OK);
}

}  // namespace dtb::test
