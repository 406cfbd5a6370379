// Hand-made positions, each with its expected move list derived by hand
// (and cross-checked with an independent coordinate-based generator,
// tests/reference/movegen_ref.py).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "rules/movegen.h"
#include "rules/notation.h"

using namespace dtb;

namespace {

Position fen(const char* text) {
  std::string error;
  const auto pos = parse_fen(text, &error);
  INFO(error);
  REQUIRE(pos);
  return *pos;
}

std::vector<std::string> legal_moves(const Position& pos) {
  MoveList list;
  generate_moves(pos, list);
  std::vector<std::string> out;
  for (const Move& m : list) out.push_back(move_to_string(pos, m));
  std::sort(out.begin(), out.end());
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("a king capture that changes direction three times") {
  // K46 jumps 37 up the long diagonal, lands on 28, turns up-left over 17 to
  // 11, up-right over 7 to 2, then down-right over 24 to 30 or 35.
  const Position pos = fen("W:WK46:B7,17,24,37");
  CHECK(legal_moves(pos) == Strings{"46x30", "46x35"});
  MoveList list;
  generate_moves(pos, list);
  for (const Move& m : list)
    CHECK(m.captured == (square_bb(7) | square_bb(17) | square_bb(24) | square_bb(37)));
}

TEST_CASE("Turkish strike: a jumped piece blocks a later jump") {
  // K42x38 (land 29), x23 (land 7), x11 (land 16). Taking 32 next would mean
  // landing on 38, whose captured man is still on the board: the move ends on
  // 16 with three pieces. (Removing pieces at once would allow four.)
  const Position pos = fen("W:WK42:B11,23,32,38");
  CHECK(legal_moves(pos) == Strings{"42x16"});
}

TEST_CASE("majority capture: three men beat two kings") {
  // 32x27x17x8 takes three men and ends on 3; 32x28x19 would take two kings.
  const Position pos = fen("W:W32:B8,17,27,K19,K28");
  CHECK(legal_moves(pos) == Strings{"32x3"});
}

TEST_CASE("a man passing the promotion row during a capture stays a man") {
  // 13x9 lands on 4 (row 1) but must go on over 10 to 15.
  const Position pos = fen("W:W13:B9,10");
  REQUIRE(legal_moves(pos) == Strings{"13x15"});
  MoveList list;
  generate_moves(pos, list);
  const Position after = make_move(pos, list[0]);
  CHECK(to_fen(after) == "B:W15:B");
  CHECK(after.kings == 0);
}

TEST_CASE("a man promoting by capture becomes a king") {
  const Position pos = fen("W:W13:B9,40");
  REQUIRE(legal_moves(pos) == Strings{"13x4"});
  MoveList list;
  generate_moves(pos, list);
  CHECK(to_fen(make_move(pos, list[0])) == "B:WK4:B40");
}

TEST_CASE("a man promoting by a quiet move, and a black man promoting") {
  CHECK(to_fen(make_move(fen("W:W6:B44"), *parse_move(fen("W:W6:B44"), "6-1"))) == "B:WK1:B44");
  const Position black = fen("B:WK1:B41");
  CHECK(legal_moves(black) == Strings{"41-46", "41-47"});
  CHECK(to_fen(make_move(black, *parse_move(black, "41-47"))) == "W:WK1:BK47");
}

TEST_CASE("duplicate captures (same start, end and captured set) are one move") {
  // K12 takes 18 and may land on 23, 29 or 34; from each it takes 40 and
  // lands on 45. Three sequences, one move.
  const Position pos = fen("W:WK12:B18,22,25,40");
  CHECK(legal_moves(pos) == Strings{"12x45"});
}

TEST_CASE("two captures with the same start and end are told apart by their captured squares") {
  // K1x12 then either x28 (land 32) x21, or x44 (land 49) x21: both end on 16.
  const Position pos = fen("W:WK1:B12,20,21,28,44");
  CHECK(legal_moves(pos) == Strings{"1x16(12,21,28)", "1x16(12,21,44)"});
  std::string error;
  CHECK_FALSE(parse_move(pos, "1x16", &error));
  CHECK(error.find("ambiguous") != std::string::npos);
  const auto m = parse_move(pos, "1x16(12,21,44)");
  REQUIRE(m);
  CHECK(m->captured == (square_bb(12) | square_bb(21) | square_bb(44)));
}

TEST_CASE("a king may end its capture on its own starting square") {
  // K3 goes round the loop 12-28-29-9 (or 9-29-28-12): its own starting
  // square is empty during the move, so it may land there again. Going
  // 9-29-28-12 it may also stop on 8. Both loops to 3 are the same move.
  const Position pos = fen("W:WK3:B9,12,28,29");
  CHECK(legal_moves(pos) == Strings{"3x3", "3x8"});
  const auto home = parse_move(pos, "3x3");
  REQUIRE(home);
  CHECK(to_fen(make_move(pos, *home)) == "B:WK3:B");
}

TEST_CASE("a side with no legal move") {
  // The white man on 6 can only go to 1, which is taken, and cannot jump off the board.
  const Position pos = fen("W:W6:B1");
  CHECK(legal_moves(pos).empty());
  CHECK(count_moves(pos) == 0);
  CHECK_FALSE(has_capture(pos));
}

TEST_CASE("capture is compulsory: quiet moves are not listed when a capture exists") {
  const Position pos = fen("W:W32,45:B27");
  CHECK(legal_moves(pos) == Strings{"32x21"});
  CHECK(has_capture(pos));
  CHECK(count_moves(pos) == 1);
}

TEST_CASE("men move forward only, kings fly") {
  CHECK(legal_moves(fen("W:W28:B1")) == Strings{"28-22", "28-23"});
  CHECK(legal_moves(fen("B:W50:B28")) == Strings{"28-32", "28-33"});
  // A king on 46 sees the whole long diagonal.
  CHECK(legal_moves(fen("W:WK46:B1")) ==
        Strings{"46-10", "46-14", "46-19", "46-23", "46-28", "46-32", "46-37", "46-41", "46-5"});
}

TEST_CASE("count_king_moves equals the king moves listed, on random placements") {
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 20000; ++i) {
    Position p;
    const int n = 1 + static_cast<int>(rng() % 16);
    for (int k = 0; k < n; ++k) {
      const Bitboard b = square_bb(static_cast<int>(rng() % 50) + 1);
      if (p.occupied() & b) continue;
      ((rng() & 1) ? p.white : p.black) |= b;
      if (rng() % 2 == 0) p.kings |= b;
    }
    MoveList list;
    generate_quiet_moves(p, list);
    int listed = 0;
    for (const Move& m : list) listed += (p.kings & (Bitboard{1} << m.from)) != 0;
    INFO(to_fen(p));
    CHECK(count_king_moves(p.kings_of(p.side), p.empty()) == listed);
  }
}
