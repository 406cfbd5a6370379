// dtb probe [--tables DIR] [--json] [--cache-mb N] [FEN ...]: the value of
// positions from the tables, with the moves that keep it.
//
// Each FEN on the command line (or, with none, each non-blank line of
// standard input) gives one output line, so batches line up with their input.
// A line that fails (bad FEN, missing table, ...) says why and the others are
// still answered; the exit status is then 1.
//
// The answer of one line is gathered in an Answer, then printed by one of two
// writers: to report more about a position, add a field and print it in both.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command.h"
#include "dtb/dtb.hpp"
#include "limits/table_lookup.h"
#include "rules/notation.h"

namespace dtb::cli {
namespace {

struct MoveAnswer {
  std::string text;  // FMJD notation
  dtb_wdl wdl;       // for the side that made the move
  bool keeps_best;
};

struct Answer {
  std::string fen;    // canonical FEN, or the input line if it did not parse
  std::string error;  // non-empty: this line failed
  dtb_wdl wdl = DTB_DRAW;
  std::vector<MoveAnswer> moves;
  std::optional<Outcome> dtw;  // from <dir>/<material>.dtw when it exists (limits/)
  std::optional<Wdl> rule;     // articles 6.3/6.4, from <dir>/<material>.rule
};

// dtw and the rule value (with `plies_in_class` played) where those tables exist.
void add_limits(Answer& a, LimitsTables& limits, int plies_in_class) {
  if (!a.error.empty()) return;
  const auto pos = parse_fen(a.fen);
  if (!pos) return;
  TableError e;
  a.dtw = limits.dtw(*pos, &e);
  if (!e) a.rule = limits.rule_value(*pos, plies_in_class, &e);
  if (e) a.error = e.message;
}

std::string status_message(dtb_status s, const dtb_error& e) {
  return std::string(dtb_status_string(s)) + (e.message[0] ? std::string(": ") + e.message : "");
}

Answer probe_one(const Tablebase& tables, const std::string& input) {
  Answer a;
  a.fen = input;
  dtb_error e{};
  dtb_position pos;
  if (Tablebase::from_fen(input, pos, &e) != DTB_OK) {
    a.error = e.message;
    return a;
  }
  const std::string canonical = Tablebase::to_fen(pos);
  if (!canonical.empty()) a.fen = canonical;
  if (const dtb_status s = tables.probe(pos, a.wdl, &e); s != DTB_OK) {
    a.error = status_message(s, e);
    return a;
  }
  std::vector<dtb_move> moves;
  dtb_wdl best = DTB_LOSS;
  if (const dtb_status s = tables.moves(pos, moves, &best, &e); s != DTB_OK) {
    a.error = status_message(s, e);
    return a;
  }
  // The table value and the best move value are found independently (one
  // table read against a probe of every successor); they must agree.
  if (best != a.wdl) {
    a.error = std::string("inconsistent tables: the position probes as ") + to_string(a.wdl) +
              " but its best move gives " + to_string(best);
    return a;
  }
  for (const dtb_move& m : moves)
    a.moves.push_back(MoveAnswer{Tablebase::move_text(pos, m), m.wdl, m.keeps_best != 0});
  return a;
}

void print_plain(const Answer& a, std::ostream& out) {
  out << a.fen;
  if (!a.error.empty()) {
    out << " error: " << a.error << "\n";
    return;
  }
  out << " " << to_string(a.wdl);
  if (a.rule) out << " rule " << to_string(*a.rule);
  for (const MoveAnswer& m : a.moves)
    if (m.keeps_best) out << " " << m.text;
  out << "\n";
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[(c >> 4) & 0xF];
      out += hex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void print_json(const Answer& a, std::ostream& out) {
  out << "{\"fen\":" << json_string(a.fen);
  if (!a.error.empty()) {
    out << ",\"error\":" << json_string(a.error) << "}\n";
    return;
  }
  out << ",\"wdl\":\"" << to_string(a.wdl) << "\"";
  if (a.dtw && a.dtw->value != Wdl::Draw) out << ",\"dtw\":" << a.dtw->plies;
  if (a.rule) out << ",\"rule_wdl\":\"" << to_string(*a.rule) << "\"";
  out << ",\"moves\":[";
  for (std::size_t i = 0; i < a.moves.size(); ++i)
    out << (i ? "," : "") << "{\"move\":" << json_string(a.moves[i].text) << ",\"wdl\":\""
        << to_string(a.moves[i].wdl) << "\"}";
  out << "],\"best\":[";
  bool first = true;
  for (const MoveAnswer& m : a.moves) {
    if (!m.keeps_best) continue;
    out << (first ? "" : ",") << json_string(m.text);
    first = false;
  }
  out << "]}\n";
}

int run_probe(const Args& args) {
  const char* env_dir = std::getenv("DTB_TABLES");
  std::string dir = env_dir && *env_dir ? env_dir : "tables";
  bool json = false;
  long long cache_mb = 64;
  int plies_in_class = 0;  // the count of articles 6.3/6.4: 0 = the class was just entered
  std::vector<std::string> fens;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--plies-in-class") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, 32) : std::nullopt;
      if (!n) return usage_error("probe", "--plies-in-class needs a whole number from 0 to 32");
      plies_in_class = static_cast<int>(*n);
    } else if (a == "--tables" || a == "--cache-mb") {
      if (i + 1 == args.size()) return usage_error("probe", a + " needs a value");
      const std::string& value = args[++i];
      if (a == "--tables") {
        dir = value;
      } else if (const auto mb = parse_int(value, 1, 1 << 20)) {
        cache_mb = *mb;
      } else {
        return usage_error("probe", "--cache-mb must be a whole number from 1 to 1048576");
      }
    } else if (a.starts_with("--")) {
      return usage_error("probe", "unknown option " + a);
    } else {
      fens.push_back(a);
    }
  }

  Tablebase tables;
  dtb_error e{};
  if (const dtb_status s = tables.open(dir, static_cast<std::size_t>(cache_mb) << 20, &e);
      s != DTB_OK) {
    std::cerr << "dtb probe: " << status_message(s, e) << "\n";
    return 1;
  }
  bool failed = false;
  LimitsTables limits(dir);
  auto answer = [&](const std::string& fen) {
    Answer a = probe_one(tables, fen);
    add_limits(a, limits, plies_in_class);
    failed |= !a.error.empty();
    json ? print_json(a, std::cout) : print_plain(a, std::cout);
  };
  if (!fens.empty()) {
    for (const std::string& fen : fens) answer(fen);
  } else {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      answer(line);
      std::cout.flush();  // answer each line as it comes, for pipes
    }
  }
  return failed ? 1 : 0;
}

}  // namespace

DTB_COMMAND("probe", "[--tables DIR] [--json] [--cache-mb N] [--plies-in-class N] [FEN ...]",
            "value (win/draw/loss for the side to move) and value-keeping moves of each FEN, "
            "from the tables (default DIR: $DTB_TABLES or tables); FENs from stdin if none given; "
            "with .dtw/.rule tables also dtw and the 6.3/6.4 rule value after N plies in the class",
            run_probe);

}  // namespace dtb::cli
