// The FEN and move parsers of rules/notation.h on arbitrary text. Input: a
// FEN, then optionally a newline and a move. Checks, beyond "no crash":
//  - a FEN that parses is written back (to_fen) to a canonical FEN that
//    parses to the same position and is its own canonical form;
//  - a FEN that fails says why (a non-empty message);
//  - every legal move of the position is written so that parse_move finds
//    exactly that move again, and the position after it round-trips too;
//  - a move text that parses names a legal move that writes and parses back
//    to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

#include "rules/movegen.h"
#include "rules/notation.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_notation: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_round_trip(const dtb::Position& pos) {
  const std::string fen = dtb::to_fen(pos);
  std::string error;
  const auto again = dtb::parse_fen(fen, &error);
  if (!again) fail("to_fen wrote a FEN parse_fen refuses", fen + " (" + error + ")");
  if (!(*again == pos)) fail("FEN does not round-trip to the same position", fen);
  if (dtb::to_fen(*again) != fen) fail("canonical FEN is not stable", fen);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view fen_text = input.substr(0, newline);
  const std::string_view move_text = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);

  std::string error;
  const auto pos = dtb::parse_fen(fen_text, &error);
  if (!pos) {
    if (error.empty()) fail("parse_fen failed without a message", std::string(fen_text));
    return 0;
  }
  check_round_trip(*pos);

  dtb::MoveList list;
  dtb::generate_moves(*pos, list);
  for (const dtb::Move& m : list) {
    const std::string text = dtb::move_to_string(*pos, m);
    const auto parsed = dtb::parse_move(*pos, text, &error);
    if (!parsed) fail("a legal move's text does not parse", dtb::to_fen(*pos) + " " + text + " (" + error + ")");
    if (!(*parsed == m)) fail("a legal move's text names another move", dtb::to_fen(*pos) + " " + text);
    check_round_trip(dtb::make_move(*pos, m));
  }

  if (!move_text.empty()) {
    error.clear();
    const auto m = dtb::parse_move(*pos, move_text, &error);
    if (!m) {
      if (error.empty()) fail("parse_move failed without a message", std::string(move_text));
      return 0;
    }
    bool legal = false;
    for (const dtb::Move& o : list) legal |= o == *m;
    if (!legal) fail("parse_move returned a move that is not legal", std::string(move_text));
    const std::string text = dtb::move_to_string(*pos, *m);
    const auto again = dtb::parse_move(*pos, text, &error);
    if (!again || !(*again == *m)) fail("a parsed move does not write and parse back", text);
  }
  return 0;
}
