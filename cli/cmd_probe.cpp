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
};

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
  out << ",\"wdl\":\"" << to_string(a.wdl) << "\",\"moves\":[";
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
  std::vector<std::string> fens;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
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
  auto answer = [&](const std::string& fen) {
    const Answer a = probe_one(tables, fen);
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

DTB_COMMAND("probe", "[--tables DIR] [--json] [--cache-mb N] [FEN ...]",
            "value (win/draw/loss for the side to move) and value-keeping moves of each FEN, "
            "from the tables (default DIR: $DTB_TABLES or tables); FENs from stdin if none given",
            run_probe);

}  // namespace dtb::cli
