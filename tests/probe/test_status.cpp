// Every failure has its own status and a message that says where.
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>

#include "dtb/dtb.h"
#include "dtb/dtb.hpp"
#include "probe_test_support.h"
#include "rules/notation.h"

namespace dtb::test {
namespace {

// Tables of every material with 2 or 3 pieces, solved once per process.
const NaiveSolution& small_truth() {
  static const NaiveSolution truth(3);
  return truth;
}

dtb_position fen(const char* text) {
  dtb_position p{};
  dtb_error e{};
  INFO(text);
  REQUIRE(dtb_position_from_fen(text, &p, &e) == DTB_OK);
  return p;
}

struct Opened {
  TempDir dir;
  dtb_tables* tables = nullptr;
  explicit Opened(bool open_now = true) {
    write_naive_tables(small_truth(), dir.path());
    if (open_now) open();
  }
  void open() { REQUIRE(dtb_open(dir.path().c_str(), 1 << 20, &tables, nullptr) == DTB_OK); }
  ~Opened() { dtb_close(tables); }
};

TEST_CASE("a missing table is reported with its material", "[status]") {
  Opened t(false);
  std::filesystem::remove(t.dir.file("KKvK.wdl"));
  t.open();
  const dtb_position p = fen("W:WK1,K2:BK50");
  dtb_wdl v;
  dtb_error e{};
  CHECK(dtb_probe_wdl(t.tables, &p, &v, &e) == DTB_TABLE_MISSING);
  CHECK(e.status == DTB_TABLE_MISSING);
  CHECK(std::string(e.material) == "KKvK");
  CHECK(std::string(e.message).find("KKvK.wdl") != std::string::npos);
  // Black to move with the same pieces reads the reversed material, KvKK.
  const dtb_position q = fen("B:WK1,K2:BK50");
  CHECK(dtb_probe_wdl(t.tables, &q, &v, &e) == DTB_OK);
  // A capture position whose successors need only present tables still answers.
  const dtb_position r = fen("W:WK1,K2:BK7");  // 1x12... must capture 7
  CHECK(dtb_probe_wdl(t.tables, &r, &v, &e) == DTB_OK);
  CHECK(v == DTB_WIN);
}

TEST_CASE("a failure without a dtb_error still returns its status", "[status]") {
  // The error argument is optional: without it no message is built, but the
  // status must still say what went wrong (it once came back as DTB_OK).
  Opened t(false);
  std::filesystem::remove(t.dir.file("KKvK.wdl"));
  t.open();
  dtb_wdl v;
  const dtb_position missing = fen("W:WK1,K2:BK50");
  CHECK(dtb_probe_wdl(t.tables, &missing, &v, nullptr) == DTB_TABLE_MISSING);
  const dtb_position four = fen("W:WK1,K2:BK49,K50");
  CHECK(dtb_probe_wdl(t.tables, &four, &v, nullptr) == DTB_TOO_MANY_PIECES);
  dtb_move moves[64];
  std::size_t count = 0;
  const dtb_position reaches_missing = fen("B:WK1,K2:BK50");  // KvKK: its moves lead to KKvK
  CHECK(dtb_probe_moves(t.tables, &reaches_missing, moves, 64, &count, nullptr, nullptr) ==
        DTB_TABLE_MISSING);
}

TEST_CASE("more pieces than the largest table: too many pieces", "[status]") {
  Opened t;
  CHECK(dtb_max_pieces(t.tables) == 3);
  const dtb_position p = fen("W:WK1,K2:BK49,K50");
  dtb_wdl v;
  dtb_error e{};
  CHECK(dtb_probe_wdl(t.tables, &p, &v, &e) == DTB_TOO_MANY_PIECES);
  CHECK(std::string(e.message).find("4 pieces") != std::string::npos);
  std::size_t count = 0;
  dtb_move moves[8];
  CHECK(dtb_probe_moves(t.tables, &p, moves, 8, &count, nullptr, &e) == DTB_TOO_MANY_PIECES);
}

TEST_CASE("invalid positions are refused, never probed", "[status]") {
  Opened t;
  const dtb_position good = fen("W:WK1,K2:BK50");
  auto status = [&](dtb_position p) {
    dtb_wdl v;
    dtb_error e{};
    const dtb_status s = dtb_probe_wdl(t.tables, &p, &v, &e);
    if (s == DTB_INVALID_POSITION) CHECK(std::strlen(e.message) > 0);
    return s;
  };
  CHECK(status(good) == DTB_OK);
  dtb_position p = good;
  p.black |= 1;  // square 1 is white's already
  CHECK(status(p) == DTB_INVALID_POSITION);
  p = good;
  p.kings |= std::uint64_t{1} << 20;  // king on an empty square
  CHECK(status(p) == DTB_INVALID_POSITION);
  p = good;
  p.white |= std::uint64_t{1} << 2;  // white man on square 3
  CHECK(status(p) == DTB_INVALID_POSITION);
  p = good;
  p.black |= std::uint64_t{1} << 46;  // black man on square 47
  CHECK(status(p) == DTB_INVALID_POSITION);
  p = good;
  p.white |= std::uint64_t{1} << 50;  // beyond square 50
  CHECK(status(p) == DTB_INVALID_POSITION);
  p = good;
  p.side_to_move = 2;
  CHECK(status(p) == DTB_INVALID_POSITION);
  p = good;
  p.black = p.kings = 0;  // White to move, Black has no pieces: the game ended before
  p.kings = good.white;
  CHECK(status(p) == DTB_INVALID_POSITION);
  p = dtb_position{};
  CHECK(status(p) == DTB_INVALID_POSITION);
  // The side to move without pieces has lost (FMJD 7.2).
  p = good;
  p.side_to_move = DTB_BLACK;
  p.black = 0;
  p.kings = good.white;
  dtb_wdl v = DTB_WIN;
  CHECK(dtb_probe_wdl(t.tables, &p, &v, nullptr) == DTB_OK);
  CHECK(v == DTB_LOSS);
  CHECK(dtb_probe_wdl(t.tables, nullptr, &v, nullptr) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_probe_wdl(nullptr, &good, &v, nullptr) == DTB_INVALID_ARGUMENT);
}

TEST_CASE("a truncated table file is reported as corrupted, naming the file", "[status]") {
  Opened t(false);
  const std::string path = t.dir.file("KKvK.wdl");
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  t.open();
  const dtb_position p = fen("W:WK1,K2:BK50");
  dtb_wdl v;
  dtb_error e{};
  CHECK(dtb_probe_wdl(t.tables, &p, &v, &e) == DTB_CORRUPTED_TABLE);
  CHECK(std::string(e.message).find("KKvK.wdl") != std::string::npos);
  // Asking again gives the same answer (the failure is remembered, not retried).
  CHECK(dtb_probe_wdl(t.tables, &p, &v, &e) == DTB_CORRUPTED_TABLE);
}

TEST_CASE("a damaged block gives corrupted table with the block, never a wrong value", "[status]") {
  Opened t(false);
  const Material m = *parse_material("KKvK");
  const std::string path = t.dir.file(m.name() + ".wdl");
  damage_last_quarter(path);
  dtb_error open_error{};
  REQUIRE(dtb_open(t.dir.path().c_str(), 1 << 20, &t.tables, &open_error) == DTB_OK);
  const PositionIndex& index = small_truth().index(m);
  std::uint64_t corrupted = 0, wrong = 0;
  dtb_error first{};
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const Position p = index.unrank(i);
    const dtb_position c = c_position(p);
    dtb_wdl v;
    dtb_error e{};
    const dtb_status s = dtb_probe_wdl(t.tables, &c, &v, &e);
    if (s == DTB_CORRUPTED_TABLE) {
      if (corrupted++ == 0) first = e;
    } else if (s != DTB_OK || static_cast<int>(v) != static_cast<int>(small_truth().value(p))) {
      ++wrong;
    }
  }
  CHECK(wrong == 0);
  REQUIRE(corrupted > 0);
  INFO(first.message);
  CHECK(std::string(first.material) == "KKvK");
  CHECK(std::string(first.message).find("KKvK.wdl") != std::string::npos);
  CHECK(first.block >= 0);
}

TEST_CASE("a directory that cannot be read is an i/o error", "[status]") {
  dtb_tables* tables = nullptr;
  dtb_error e{};
  CHECK(dtb_open("/nonexistent/dtb-tables", 1 << 20, &tables, &e) == DTB_IO_ERROR);
  CHECK(tables == nullptr);
  CHECK(std::string(e.message).find("/nonexistent/dtb-tables") != std::string::npos);
  CHECK(dtb_open(nullptr, 1 << 20, &tables, &e) == DTB_INVALID_ARGUMENT);
  CHECK(std::string(dtb_status_string(DTB_CORRUPTED_TABLE)) == "corrupted table");
}

TEST_CASE("moves come with their values and the best ones are marked", "[moves]") {
  Opened t;
  const NaiveSolution& truth = small_truth();
  // A forced capture, a quiet win, Black to move, and a side without moves.
  for (const char* text : {"W:W28,K46:B23", "W:WK46,28:B3", "B:W28:BK5,K1", "W:W6:B1"}) {
    INFO(text);
    const dtb_position p = fen(text);
    const Position internal = *parse_fen(text);
    dtb_move moves[64];
    std::size_t count = 0;
    dtb_wdl best = DTB_DRAW;
    REQUIRE(dtb_probe_moves(t.tables, &p, moves, 64, &count, &best, nullptr) == DTB_OK);
    CHECK(static_cast<int>(best) == static_cast<int>(truth.value(internal)));
    MoveList list;
    generate_moves(internal, list);
    REQUIRE(count == static_cast<std::size_t>(list.size));
    for (std::size_t i = 0; i < count; ++i) {
      dtb_position after;
      REQUIRE(dtb_make_move(&p, &moves[i], &after) == DTB_OK);
      Position q = *parse_fen(dtb::Tablebase::to_fen(after));
      const Wdl expected = q.pieces(q.side) == 0 ? Wdl::Win : negate(truth.value(q));
      CHECK(static_cast<int>(moves[i].wdl) == static_cast<int>(expected));
      CHECK(moves[i].keeps_best == (moves[i].wdl == best));
      CHECK_FALSE(dtb::Tablebase::move_text(p, moves[i]).empty());
    }
    if (count > 0) {  // too small a buffer: told how many are needed
      std::size_t needed = 0;
      CHECK(dtb_probe_moves(t.tables, &p, moves, count - 1, &needed, nullptr, nullptr) ==
            DTB_INVALID_ARGUMENT);
      CHECK(needed == count);
    }
  }
}

TEST_CASE("FEN helpers round-trip and reject bad text", "[fen]") {
  dtb_position p{};
  dtb_error e{};
  REQUIRE(dtb_position_from_fen("B:W31-33,K45:BK3,1", &p, &e) == DTB_OK);
  CHECK(p.side_to_move == DTB_BLACK);
  CHECK(p.white == ((std::uint64_t{7} << 30) | (std::uint64_t{1} << 44)));
  CHECK(p.black == ((std::uint64_t{1} << 0) | (std::uint64_t{1} << 2)));
  CHECK(p.kings == ((std::uint64_t{1} << 44) | (std::uint64_t{1} << 2)));
  char buffer[256];
  REQUIRE(dtb_position_to_fen(&p, buffer, sizeof buffer) == DTB_OK);
  CHECK(std::string(buffer) == "B:W31,32,33,K45:B1,K3");
  CHECK(dtb_position_to_fen(&p, buffer, 5) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_position_from_fen("W:W3:B10", &p, &e) == DTB_INVALID_ARGUMENT);  // man on its promotion row
  CHECK(std::strlen(e.message) > 0);
  CHECK(dtb_position_from_fen("nonsense", &p, &e) == DTB_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace dtb::test
