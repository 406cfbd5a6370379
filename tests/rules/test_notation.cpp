// FEN reading and writing: round trips, the accepted variants, and one test
// per kind of bad input (each must give a precise message, never a crash).
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "rules/notation.h"

using namespace dtb;

namespace {

std::string error_of(const char* text) {
  std::string error;
  const auto pos = parse_fen(text, &error);
  CHECK_FALSE(pos);
  return error;
}

bool contains(const std::string& haystack, const char* needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("FEN of the start position") {
  const auto pos = parse_fen("W:W31-50:B1-20");
  REQUIRE(pos);
  CHECK(*pos == start_position());
  CHECK(to_fen(start_position()) ==
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
        "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
}

TEST_CASE("FEN variants: either list first, any order, ranges, trailing dot, spaces, quotes") {
  const auto canonical = parse_fen("W:W31,32,K45:B1,2,K3");
  REQUIRE(canonical);
  for (const char* variant : {"W:B1,2,K3:W31,32,K45", "W:W32,K45,31:BK3,2,1.", "W:W31-32,K45:B1-2,K3",
                              " W : W31, 32, K45 : B1, 2, K3 ", "\"W:W31,32,K45:B1,2,K3\"",
                              "W:WK45,31,32:BK3-3,1,2"}) {
    INFO(variant);
    const auto pos = parse_fen(variant);
    REQUIRE(pos);
    CHECK(*pos == *canonical);
  }
  CHECK(canonical->side == Color::White);
  CHECK(parse_fen("B:W31:B1")->side == Color::Black);
}

TEST_CASE("FEN round trip on random legal placements") {
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 20000; ++i) {
    Position p;
    p.side = (rng() & 1) ? Color::White : Color::Black;
    const int n = static_cast<int>(rng() % 20);
    for (int k = 0; k < n; ++k) {
      const int sq = static_cast<int>(rng() % 50) + 1;
      const Bitboard b = square_bb(sq);
      if (p.occupied() & b) continue;
      const Color c = (rng() & 1) ? Color::White : Color::Black;
      const bool king = (rng() % 3 == 0) || (b & promotion_row(c));
      (c == Color::White ? p.white : p.black) |= b;
      if (king) p.kings |= b;
    }
    const std::string text = to_fen(p);
    const auto back = parse_fen(text);
    INFO(text);
    REQUIRE(back);
    CHECK(*back == p);
  }
}

TEST_CASE("bad FEN: a white man on 1-5 or a black man on 46-50") {
  CHECK(contains(error_of("W:W3:B20"), "white man cannot stand on square 3"));
  CHECK(contains(error_of("B:W31:B47"), "black man cannot stand on square 47"));
  CHECK(parse_fen("W:WK3:BK47"));  // kings may stand there
}

TEST_CASE("bad FEN: a square used twice") {
  CHECK(contains(error_of("W:W31,31:B1"), "square 31 is used twice"));
  CHECK(contains(error_of("W:W31:B31"), "square 31 is used twice"));
  CHECK(contains(error_of("W:W30-35:B33"), "square 33 is used twice"));
}

TEST_CASE("bad FEN: numbers out of range") {
  CHECK(contains(error_of("W:W51:B1"), "square 51 is out of range"));
  CHECK(contains(error_of("W:W0:B1"), "square 0 is out of range"));
  CHECK(contains(error_of("W:W31:B1,1000"), "out of range"));
  CHECK(contains(error_of("W:W35-31:B1"), "bad range"));
}

TEST_CASE("bad FEN: garbage") {
  CHECK(contains(error_of(""), "side to move"));
  CHECK(contains(error_of("X:W31:B1"), "side to move"));
  CHECK(contains(error_of("W:W31"), "both colours"));
  CHECK(contains(error_of("W:W31:W32:B1"), "listed twice"));
  CHECK(contains(error_of("W:W31:B1;"), "unexpected text"));
  CHECK(contains(error_of("W:Wx:B1"), "expected a square"));
  CHECK(contains(error_of("W:W31,:B1"), "expected a square"));
  CHECK(contains(error_of("W:Z31:B1"), "expected W or B"));
  CHECK(contains(error_of("W:WK:B1"), "expected a square"));
  CHECK_FALSE(parse_fen("W:W31:B1 trailing"));
}

TEST_CASE("bad FEN input never crashes: random byte strings") {
  std::mt19937_64 rng(99);
  const std::string alphabet = "WBK:,-.0123456789 \"x";
  for (int i = 0; i < 100000; ++i) {
    std::string s;
    const int len = static_cast<int>(rng() % 30);
    for (int k = 0; k < len; ++k)
      s += (rng() % 10 == 0) ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    std::string error;
    const auto pos = parse_fen(s, &error);
    if (pos)
      CHECK(parse_fen(to_fen(*pos)) == pos);
    else
      CHECK_FALSE(error.empty());
  }
}

TEST_CASE("move notation round trip over the start position's tree") {
  const Position start = start_position();
  MoveList list;
  generate_moves(start, list);
  for (const Move& m : list) {
    const std::string text = move_to_string(start, m);
    const auto back = parse_move(start, text);
    REQUIRE(back);
    CHECK(*back == m);
  }
  std::string error;
  CHECK_FALSE(parse_move(start, "46-41", &error));
  CHECK(contains(error, "not a legal move"));
  CHECK_FALSE(parse_move(start, "garbage", &error));
  CHECK_FALSE(parse_move(start, "32-", &error));
}

TEST_CASE("landing-square capture notation") {
  // K46 x37 -> 28 x17 -> 11 x7 -> 2 x24 -> 30: written with landing squares.
  const auto pos = parse_fen("W:WK46:B7,17,24,37");
  REQUIRE(pos);
  const auto m = parse_move(*pos, "46x28x11x2x30");
  REQUIRE(m);
  CHECK(m->to_square() == 30);
}
