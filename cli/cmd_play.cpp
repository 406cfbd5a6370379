// dtb play [--tables DIR] [--json] [--cache-mb N] FEN: the whole line of
// perfect play from a position, one dtb_best_move after another (quickest
// conversion for the winner, longest resistance for the loser, a drawing
// move in a draw), in FMJD notation, and the result.
//
// The line ends when the side to move has no legal move (it has lost, FMJD
// 7.2) or when a position occurs for the third time with the same side to
// move (a draw, FMJD 6.1). No length cap is needed: best_move is a function
// of the position, so a line that does not end revisits a position, and a
// third visit follows. Articles 6.2-6.4 (the move-count draws) are not
// applied: this is the line of theoretical values, the ones dtb_probe_wdl
// gives.
//
// It goes through the public API (dtb/dtb.hpp) like an engine would. If the
// line's result contradicts the starting position's value, the tables
// disagree with themselves: the line is still printed, with a warning, and
// the exit status is 1.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cli/args.h"
#include "cli/command.h"
#include "dtb/dtb.hpp"
#include "serve/json_text.h"

namespace dtb::cli {
namespace {

struct Line {
  std::vector<std::string> moves;  // FMJD notation
  std::vector<std::string> fens;   // fens[0] the start, fens[i + 1] after moves[i]
  int winner = -1;                 // DTB_WHITE, DTB_BLACK, or -1 for a draw
};

const char* side_name(int side) { return side == DTB_WHITE ? "White" : "Black"; }

std::string result_text(const Line& line) {
  return line.winner < 0 ? "draw (repetition)" : std::string(side_name(line.winner)) + " wins";
}

// "1. 32-28 19x28 2. 28-23", or "1... 19x28 2. 32-28" when Black starts.
std::string numbered(const Line& line, std::uint32_t first_side) {
  std::string out;
  const int offset = first_side == DTB_BLACK ? 1 : 0;
  for (std::size_t i = 0; i < line.moves.size(); ++i) {
    const std::size_t ply = i + static_cast<std::size_t>(offset);
    const std::string number = std::to_string(ply / 2 + 1);
    if (!out.empty()) out += ' ';
    if (ply % 2 == 0) out += number + ". ";
    else if (i == 0) out += number + "... ";
    out += line.moves[i];
  }
  return out;
}

std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + json_string(items[i]);
  return out + "]";
}

// Plays `pos` out; returns false (with `why`) if a probe fails.
bool play_out(const Tablebase& tables, dtb_position pos, Line& line, std::string& why) {
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint32_t>, int> seen;
  for (;;) {
    line.fens.push_back(Tablebase::to_fen(pos));
    if (++seen[{pos.white, pos.black, pos.kings, pos.side_to_move}] == 3) return true;  // FMJD 6.1
    dtb_move move{};
    dtb_error e{};
    const dtb_status s = tables.best_move(pos, move, &e);
    if (s == DTB_GAME_OVER) {  // the side to move has lost
      line.winner = pos.side_to_move == DTB_WHITE ? DTB_BLACK : DTB_WHITE;
      return true;
    }
    if (s != DTB_OK) {
      why = std::string(dtb_status_string(s)) + ": " + e.message;
      return false;
    }
    line.moves.push_back(Tablebase::move_text(pos, move));
    dtb_position after{};
    if (dtb_make_move(&pos, &move, &after) != DTB_OK) {  // best_move gave an illegal move: a library bug
      why = "dtb_best_move returned a move that is not legal: " + line.moves.back();
      return false;
    }
    pos = after;
  }
}

int run_play(const Args& args) {
  TableOptions tables_options;
  bool json = false;
  std::vector<std::string> fens;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (const auto taken = tables_options.take(args, i)) {
      if (!taken->empty()) return usage_error("play", *taken);
    } else if (a.starts_with("--")) {
      return usage_error("play", "unknown option " + a);
    } else {
      fens.push_back(a);
    }
  }
  if (fens.size() != 1) return usage_error("play", "expected one FEN");

  Tablebase tables;
  dtb_error e{};
  if (const dtb_status s = tables.open(tables_options.dir, static_cast<std::size_t>(tables_options.cache_mb) << 20, &e); s != DTB_OK) {
    std::cerr << "dtb play: " << dtb_status_string(s) << ": " << e.message << "\n";
    return 1;
  }
  dtb_position start{};
  if (Tablebase::from_fen(fens[0], start, &e) != DTB_OK) {
    std::cerr << "dtb play: " << e.message << "\n";
    return 1;
  }
  dtb_wdl value = DTB_DRAW;
  int mtc = -1;
  if (const dtb_status s = tables.mtc(start, value, mtc, &e); s != DTB_OK) {
    std::cerr << "dtb play: " << dtb_status_string(s) << ": " << e.message << "\n";
    return 1;
  }
  Line line;
  std::string why;
  if (!play_out(tables, start, line, why)) {
    std::cerr << "dtb play: " << why << "\n";
    return 1;
  }

  const int expected_winner = value == DTB_DRAW ? -1
                              : value == DTB_WIN ? static_cast<int>(start.side_to_move)
                                                 : static_cast<int>(start.side_to_move ^ 1u);
  if (json) {
    std::cout << "{\"fen\":" << json_string(line.fens.front()) << ",\"wdl\":" << json_string(to_string(value))
              << ",\"mtc\":" << (mtc >= 0 ? std::to_string(mtc) : "null") << ",\"moves\":" << json_list(line.moves)
              << ",\"fens\":" << json_list(line.fens) << ",\"result\":" << json_string(result_text(line))
              << ",\"winner\":"
              << (line.winner < 0 ? "null" : line.winner == DTB_WHITE ? "\"white\"" : "\"black\"")
              << ",\"plies\":" << line.moves.size() << "}\n";
  } else {
    if (!line.moves.empty()) std::cout << numbered(line, start.side_to_move) << "\n";
    std::cout << result_text(line) << "\n";
  }
  if (line.winner != expected_winner) {
    std::cerr << "dtb play: the tables contradict themselves: " << line.fens.front() << " probes as a "
              << to_string(value) << " for " << side_name(static_cast<int>(start.side_to_move))
              << ", but perfect play from it ends: " << result_text(line) << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

DTB_COMMAND("play", "[--tables DIR] [--json] [--cache-mb N] FEN",
            "the line of perfect play from FEN (quickest conversion for the winner, longest resistance for "
            "the loser; needs the .mtc tables of `dtb gen --mtc`) until the game ends or a position repeats "
            "three times, and the result (default DIR: $DTB_TABLES or tables)",
            run_play);

}  // namespace dtb::cli
