// dtb play [--tables DIR] [--json] [--cache SIZE] FEN: the whole line of
// perfect play from a position, one dtb_best_move after another (quickest
// conversion for the winner, longest resistance for the loser, a drawing
// move in a draw), in FMJD notation, and the result. With --json each move of
// the line is the move object `dtb probe --json` gives for it at its position
// (with the line's counts), so a line reads exactly like probes.
//
// The line ends when the side to move has no legal move (it has lost, FMJD
// 7.2) or when a position occurs for the third time with the same side to
// move (a draw, FMJD 6.1). No length cap is needed: best_move is a function
// of the position, so a line that does not end revisits a position, and a
// third visit follows. Articles 6.2-6.4 (the move-count draws) are not
// applied: this is the line of theoretical values, the ones dtb_probe_wdl
// gives.
//
// With --plies-since-conversion C the line is played under the draw rules
// instead: C plies already counted, one dtb_best_move_counted after another
// (the count back to 0 after a capture or a man move, one more after a king
// move), and the game drawn when the count reaches 50 (article 6.2). In a
// 6.3/6.4 class material the class's own, shorter count decides (the
// library's choice with both counts): --plies-in-class K for a class FEN,
// else C (the class was entered at the last conversion), which
// dtb_counts_after carries (a fresh count on entering the other class), and
// the game is drawn when it reaches the class's limit (32 or 10 plies).
// The value the line must reach is dtb_probe_counted's. A directory without the
// class's .rule tables cannot play the class under its count: the line then
// stops where it enters one and gives the theoretical value there, which the
// class rule keeps from a fresh count in every class material (dtb rules:
// every longest win fits its limit).
//
// It goes through the public API (dtb/dtb.hpp) like an engine would. If the
// line's result contradicts the starting position's value, the tables
// disagree with themselves: the line is still printed, with a warning, and
// the exit status is 1.
#include <algorithm>
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
#include "rules/article62.h"
#include "serve/json_text.h"
#include "serve/probe_report.h"
#include "serve/report_json.h"

namespace dtb::cli {
namespace {

// The draw-rule counts of a line: `since` plies since the last conversion
// (-1: the line of theoretical values, no counts) and `in_class` plies in
// the 6.3/6.4 class of the position (-1: in none).
struct Counts {
  int since = -1;
  int in_class = -1;
};

struct Line {
  std::vector<std::string> moves;  // FMJD notation
  std::vector<std::string> fens;   // fens[0] the start, fens[i + 1] after moves[i]
  std::vector<Counts> counts;      // counts[i]: the counts at fens[i]
  int winner = -1;                 // DTB_WHITE, DTB_BLACK, or -1 for a draw
  // Under the draw rules only: the article whose count drew the line ("6.2",
  // "6.3", "6.4"), or nullptr (a repetition, or a win).
  const char* drawn_by = nullptr;
  // The line entered a class whose .rule table the directory lacks: it stops
  // there, and `winner` is the theoretical one (see the header).
  bool entered_class_without_rule = false;
};

const char* side_name(int side) { return side == DTB_WHITE ? "White" : "Black"; }

std::string result_text(const Line& line) {
  if (line.entered_class_without_rule)
    return line.winner < 0 ? "enters a 6.3/6.4 class: a draw (theoretical value: no .rule table)"
                           : std::string("enters a 6.3/6.4 class: ") + side_name(line.winner) +
                                 " wins within its count (theoretical value: no .rule table)";
  if (line.winner >= 0) return std::string(side_name(line.winner)) + " wins";
  if (!line.drawn_by) return "draw (repetition)";
  const std::string article = line.drawn_by;
  if (article == "6.2") return "draw (article 6.2: 50 plies without a capture or man move)";
  return "draw (article " + article + ": " + (article == "6.3" ? "16" : "5") + " moves each in the class)";
}

// The winner of a value for the side to move, or -1 for a draw.
int winner_of(dtb_wdl value, std::uint32_t side_to_move) {
  if (value == DTB_DRAW) return -1;
  return value == DTB_WIN ? static_cast<int>(side_to_move) : static_cast<int>(side_to_move ^ 1u);
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

// The article whose count has run out at `pos` (a side to move that still
// has a move: one without has lost, whatever the count), or nullptr.
const char* count_ran_out(const dtb_position& pos, const Counts& counts) {
  if (counts.since < 0) return nullptr;
  const int limit = Tablebase::class_limit(pos);
  const bool out = counts.in_class >= 0 ? counts.in_class >= limit : counts.since >= kArticle62Plies;
  if (!out) return nullptr;
  dtb_move any[1];
  std::size_t count = 0;
  const dtb_status s = dtb_legal_moves(&pos, any, 1, &count, nullptr);
  if (count == 0 && s == DTB_OK) return nullptr;
  return counts.in_class < 0 ? "6.2" : limit == 32 ? "6.3" : "6.4";
}

// The library's move of perfect play at `pos`: dtb_best_move on the line of
// theoretical values, dtb_best_move_counted under the draw rules (the rule
// that governs the material decides).
dtb_status best_move(const Tablebase& tables, const dtb_position& pos, const Counts& counts, dtb_move& move,
                     dtb_error& e) {
  if (counts.since < 0) return tables.best_move(pos, move, &e);
  const dtb_counts c{counts.since, counts.in_class >= 0 ? counts.in_class : DTB_NOT_COUNTED};
  return tables.best_move_counted(pos, c, move, &e);
}

// Plays `pos` out; returns false (with `why`) if a probe fails. Under the
// draw rules when counts.since >= 0, as the header says.
bool play_out(const Tablebase& tables, dtb_position pos, Counts counts, Line& line, std::string& why) {
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint32_t>, int> seen;
  for (;;) {
    line.fens.push_back(Tablebase::to_fen(pos));
    line.counts.push_back(counts);
    if (++seen[{pos.white, pos.black, pos.kings, pos.side_to_move}] == 3) return true;  // FMJD 6.1
    if ((line.drawn_by = count_ran_out(pos, counts))) return true;
    dtb_move move{};
    dtb_error e{};
    dtb_status s = best_move(tables, pos, counts, move, e);
    const bool counted_in_class = counts.since >= 0 && counts.in_class >= 0;
    if (s == DTB_TABLE_MISSING && counted_in_class && !line.moves.empty()) {  // a class without its .rule table
      dtb_wdl theoretical = DTB_DRAW;
      s = tables.probe(pos, theoretical, &e);
      if (s != DTB_OK) return why = std::string(dtb_status_string(s)) + ": " + e.message, false;
      line.entered_class_without_rule = true;
      line.winner = winner_of(theoretical, pos.side_to_move);
      return true;
    }
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
      why = "the best move returned is not legal: " + line.moves.back();
      return false;
    }
    if (counts.since >= 0) Tablebase::counts_after(pos, move, counts.since, counts.in_class);
    pos = after;
  }
}

// The object `dtb probe --json` gives for move `i` of the line at its
// position, with the line's counts there (serve/report_json.h). False with
// `why` if the probe fails.
bool move_object(const Tablebase& tables, const Line& line, std::size_t i, std::string& out, std::string& why) {
  const Counts& c = line.counts[i];
  const ProbeReport r = probe_report(tables, line.fens[i], std::max(c.in_class, 0), c.since, c.in_class);
  if (r.failure) return why = r.failure.message, false;
  for (const MoveReport& m : r.moves)
    if (m.move == line.moves[i]) return out = move_json(m), true;
  return why = "the move " + line.moves[i] + " is not among the moves of " + line.fens[i], false;
}

// The line's moves as `dtb probe --json` move objects.
bool move_objects(const Tablebase& tables, const Line& line, std::string& out, std::string& why) {
  out = "[";
  for (std::size_t i = 0; i < line.moves.size(); ++i) {
    std::string object;
    if (!move_object(tables, line, i, object, why)) return false;
    out += (i ? "," : "") + object;
  }
  out += "]";
  return true;
}

constexpr Option kPlayOptions[] = {
    kTablesOption,
    kCacheOption,
    kCacheMbOption,
    {"--json", "", "the line as one JSON object"},
    {"--plies-since-conversion", "C", "play under the draw rules with C plies counted since a capture or man "
                                      "move, 0 to 49 (drawn at 50)"},
    {"--plies-in-class", "K", "with C, in a 6.3/6.4 class: K plies in the class, 0 to 32 (default C; needs the "
                              ".rule tables)"},
};

int run_play(const Args& args) {
  TableOptions tables_options;
  bool json = false;
  int since = -1;     // --plies-since-conversion: play under the draw rules with this count
  int in_class = -1;  // --plies-in-class: the class count of a 6.3/6.4 class FEN
  std::vector<std::string> fens;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--plies-since-conversion") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, kMaxPliesSinceConversion) : std::nullopt;
      if (!n) return usage_error("play", "--plies-since-conversion needs a whole number from 0 to 49");
      since = static_cast<int>(*n);
    } else if (a == "--plies-in-class") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, 32) : std::nullopt;
      if (!n) return usage_error("play", "--plies-in-class needs a whole number from 0 to 32");
      in_class = static_cast<int>(*n);
    } else if (const auto taken = tables_options.take(args, i)) {
      if (!taken->empty()) return usage_error("play", *taken);
    } else if (a.starts_with("--")) {
      return unknown_option("play", a);
    } else {
      fens.push_back(a);
    }
  }
  if (fens.size() != 1) return usage_error("play", "expected one FEN");
  if (in_class >= 0 && since < 0)
    return usage_error("play", "--plies-in-class goes with --plies-since-conversion (play under the draw rules)");

  Tablebase tables;
  dtb_error e{};
  if (const dtb_status s = tables.open(tables_options.dir, tables_options.cache_bytes, &e); s != DTB_OK) {
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
  dtb_wdl rules_value = value;  // the value the line must reach
  Counts counts{since, -1};
  if (since >= 0) {
    const bool in_a_class = Tablebase::class_limit(start) > 0;
    if (in_class >= 0 && !in_a_class) {
      std::cerr << "dtb play: " << fens[0] << " is in no 6.3/6.4 class: --plies-in-class does not apply\n";
      return 1;
    }
    // A class is entered by a conversion, so its count is never below the
    // 6.2 count (the library reads a smaller one so too); without K the class
    // was entered at the last conversion.
    if (in_a_class) counts.in_class = std::max(in_class, since);
    const dtb_counts start_counts{since, counts.in_class >= 0 ? counts.in_class : DTB_NOT_COUNTED};
    if (const dtb_status s = tables.counted(start, start_counts, rules_value, &e); s != DTB_OK) {
      std::cerr << "dtb play: " << dtb_status_string(s) << ": " << e.message << "\n";
      return 1;
    }
  }
  Line line;
  std::string why;
  if (!play_out(tables, start, counts, line, why)) {
    std::cerr << "dtb play: " << why << "\n";
    return 1;
  }

  const int expected_winner = winner_of(rules_value, start.side_to_move);
  if (json) {
    std::string moves;
    if (!move_objects(tables, line, moves, why)) {
      std::cerr << "dtb play: " << why << "\n";
      return 1;
    }
    // Every key always there, null where it does not apply (no counts given).
    const auto count = [](int n) { return n >= 0 ? std::to_string(n) : std::string("null"); };
    std::cout << "{\"fen\":" << json_string(line.fens.front()) << ",\"wdl\":" << json_string(to_string(value))
              << ",\"mtc\":" << count(mtc) << ",\"moves\":" << moves << ",\"fens\":" << json_list(line.fens)
              << ",\"result\":" << json_string(result_text(line)) << ",\"winner\":"
              << (line.winner < 0 ? "null" : line.winner == DTB_WHITE ? "\"white\"" : "\"black\"")
              << ",\"plies\":" << line.moves.size() << ",\"plies_since_conversion\":" << count(since)
              << ",\"rules_wdl\":" << (since >= 0 ? json_string(to_string(rules_value)) : "null")
              << ",\"plies_in_class\":" << count(counts.in_class) << "}\n";
  } else {
    if (!line.moves.empty()) std::cout << numbered(line, start.side_to_move) << "\n";
    std::cout << result_text(line) << "\n";
  }
  if (line.winner != expected_winner) {
    std::cerr << "dtb play: the tables contradict themselves: " << line.fens.front() << " probes as a "
              << to_string(rules_value) << (since >= 0 ? " under the draw rules" : "") << " for " << side_name(static_cast<int>(start.side_to_move))
              << ", but perfect play from it ends: " << result_text(line) << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

DTB_COMMAND("play", "[options] FEN", "the line of perfect play from a position, and the result",
            "The winner converts as quickly as it can and the loser resists as long as it can (needs the .mtc "
            "tables of dtb gen --mtc) until the game ends or a position occurs three times; without "
            "--plies-since-conversion the move-count draws (articles 6.2-6.4) are not applied",
            kPlayOptions, run_play);

}  // namespace dtb::cli
