// The table-free position functions of the C API: legal moves, reading move
// text, and enumerating a material's positions in table order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "index/colour.h"
#include "index/position_index.h"
#include "probe_test_support.h"
#include "rules/notation.h"

using namespace dtb;

namespace {

std::vector<dtb_move> legal_moves(const dtb_position& p) {
  std::size_t count = 0;
  dtb_error e{};
  const dtb_status sizing = dtb_legal_moves(&p, nullptr, 0, &count, &e);  // asks how many
  CHECK(sizing == (count == 0 ? DTB_OK : DTB_INVALID_ARGUMENT));
  std::vector<dtb_move> moves(count);
  REQUIRE(dtb_legal_moves(&p, moves.data(), moves.size(), &count, nullptr) == DTB_OK);
  REQUIRE(count == moves.size());
  return moves;
}

}  // namespace

TEST_CASE("dtb_legal_moves: the move generator's moves, each read back from its own text") {
  // The start, a king capture whose two routes share start and end squares
  // (written with the captured squares), a forced capture, a blocked side.
  for (const char* fen : {"W:W31-50:B1-20", "W:WK8:B19,21,29,44", "W:W28,K46:B23", "W:W6:B1",
                          "B:W28:BK5,K1", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"}) {
    INFO(fen);
    const dtb_position p = test::c_fen(fen);
    const Position internal = *parse_fen(fen);
    MoveList expected;
    generate_moves(internal, expected);
    const std::vector<dtb_move> moves = legal_moves(p);
    REQUIRE(moves.size() == static_cast<std::size_t>(expected.size));
    for (std::size_t i = 0; i < moves.size(); ++i) {
      CHECK(moves[i].from == expected[static_cast<int>(i)].from_square());
      CHECK(moves[i].to == expected[static_cast<int>(i)].to_square());
      char text[128];
      REQUIRE(dtb_move_to_string(&p, &moves[i], text, sizeof text) == DTB_OK);
      dtb_move read;
      dtb_error e{};
      INFO(text);
      REQUIRE(dtb_move_from_string(&p, text, &read, &e) == DTB_OK);
      CHECK(read.from == moves[i].from);
      CHECK(read.to == moves[i].to);
      CHECK(read.captured == moves[i].captured);
    }
  }
}

TEST_CASE("dtb_move_from_string: illegal, ambiguous and malformed text is refused with a message") {
  const dtb_position start = test::c_fen("W:W31-50:B1-20");
  dtb_move m;
  dtb_error e{};
  CHECK(dtb_move_from_string(&start, "32-26", &m, &e) == DTB_INVALID_ARGUMENT);  // not a legal move
  CHECK(std::string(e.message).find("32-26") != std::string::npos);
  CHECK(dtb_move_from_string(&start, "hello", &m, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_move_from_string(&start, nullptr, &m, &e) == DTB_INVALID_ARGUMENT);
  REQUIRE(dtb_move_from_string(&start, "32-28", &m, &e) == DTB_OK);
  CHECK((m.from == 32 && m.to == 28 && m.captured == 0));
  // Two king captures 8x16 are told apart only by the captured squares.
  const dtb_position king = test::c_fen("W:WK8:B19,21,29,44");
  CHECK(dtb_move_from_string(&king, "8x16", &m, &e) == DTB_INVALID_ARGUMENT);
  REQUIRE(dtb_move_from_string(&king, "8x16(19,21,44)", &m, &e) == DTB_OK);
  CHECK(m.captured == ((std::uint64_t{1} << 18) | (std::uint64_t{1} << 20) | (std::uint64_t{1} << 43)));
  dtb_position bad = start;
  bad.kings = std::uint64_t{1} << 29;  // a king on an empty square (30)
  CHECK(dtb_move_from_string(&bad, "32-28", &m, &e) == DTB_INVALID_POSITION);
  std::size_t count = 0;
  CHECK(dtb_legal_moves(&bad, nullptr, 0, &count, &e) == DTB_INVALID_POSITION);
}

TEST_CASE("dtb_material_positions: every position of a material once, in its table's order") {
  for (const char* name : {"KvK", "KMvK", "MvKK", "KKvM"}) {
    INFO(name);
    const Material m = *parse_material(name);
    std::uint64_t size = 0;
    REQUIRE(dtb_material_size(name, &size, nullptr) == DTB_OK);
    CHECK(size == PositionIndex(m).size());
    for (const dtb_side side : {DTB_WHITE, DTB_BLACK}) {
      std::vector<dtb_position> all(size);
      REQUIRE(dtb_material_positions(name, side, 0, all.data(), size, nullptr) == DTB_OK);
      const PositionIndex table(side == DTB_WHITE ? m : m.reversed());
      long wrong = 0;
      for (std::uint64_t i = 0; i < size; ++i) {
        char fen[256];
        REQUIRE(dtb_position_to_fen(&all[i], fen, sizeof fen) == DTB_OK);  // valid
        const Position p = *parse_fen(fen);
        wrong += all[i].side_to_move != static_cast<std::uint32_t>(side);
        wrong += !(material_of(p) == m);
        wrong += table_rank(table, p) != i;
      }
      CHECK(wrong == 0);
      // A slice in the middle is the same as the whole run's.
      dtb_position slice[3];
      REQUIRE(dtb_material_positions(name, side, size / 2, slice, 3, nullptr) == DTB_OK);
      CHECK(slice[1].white == all[size / 2 + 1].white);
      CHECK(slice[1].kings == all[size / 2 + 1].kings);
    }
  }
}

TEST_CASE("dtb_material_positions: bad names and ranges are refused") {
  std::uint64_t size = 0;
  dtb_error e{};
  CHECK(dtb_material_size("MKvK", &size, &e) == DTB_INVALID_ARGUMENT);  // men before kings
  CHECK(std::string(e.message).find("MKvK") != std::string::npos);
  CHECK(dtb_material_size("KvX", &size, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_material_size(nullptr, &size, &e) == DTB_INVALID_ARGUMENT);
  REQUIRE(dtb_material_size("KvK", &size, nullptr) == DTB_OK);
  CHECK(size == 2450);
  dtb_position p[2];
  CHECK(dtb_material_positions("KvK", DTB_WHITE, size - 1, p, 2, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_material_positions("KvK", DTB_WHITE, size - 2, p, 2, &e) == DTB_OK);
}
