// dtb probe [--tables DIR] [--json] [--cache SIZE] [FEN ...]: the value of
// positions from the tables, with the moves that keep it.
//
// Each FEN on the command line (or, with none, each non-blank line of
// standard input) gives one output line, so batches line up with their input.
// A line that fails (bad FEN, missing table, ...) says why and the others are
// still answered; the exit status is then 1.
//
// The answer of one line is a ProbeReport (serve/probe_report.h), shared with
// `dtb serve` so that the command line and the HTTP API answer alike; the
// JSON writer is shared too (serve/report_json.h), the plain one is here.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command.h"
#include "rules/article62.h"
#include "serve/probe_report.h"
#include "serve/report_json.h"

namespace dtb::cli {
namespace {

void print_plain(const ProbeReport& a, std::ostream& out) {
  out << a.fen;
  if (a.failure) {
    out << " error: " << a.failure.message << "\n";
    return;
  }
  out << " " << to_string(a.wdl);
  if (a.rule_wdl) out << " rule " << to_string(*a.rule_wdl);
  if (a.rules_wdl) out << " rules " << to_string(*a.rules_wdl);
  for (const MoveReport& m : a.moves)
    if (m.keeps_best) out << " " << m.move;
  if (a.mtc) out << " mtc " << *a.mtc;
  if (a.best_move) out << " best " << *a.best_move;
  if (a.rules_best_move) out << " rules-best " << *a.rules_best_move;
  out << "\n";
}

constexpr Option kProbeOptions[] = {
    kTablesOption,
    kCacheOption,
    kCacheMbOption,
    {"--json", "", "one JSON object per FEN instead of a line of text"},
    {"--plies-in-class", "N", "the 6.3/6.4 rule value after N plies in the class, 0 to 32 (needs .rule tables)"},
    {"--plies-since-conversion", "C", "the value under article 6.2 after C plies without a man move or capture, "
                                      "0 to 49 (6.3/6.4 in their classes; needs .mtc tables)"},
};

int run_probe(const Args& args) {
  TableOptions tables_options;
  bool json = false;
  int plies_in_class = 0;  // the count of articles 6.3/6.4: 0 = the class was just entered
  bool class_count_given = false;
  int plies_since_conversion = -1;  // the count of article 6.2; -1: not asked for
  std::vector<std::string> fens;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--plies-in-class") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, 32) : std::nullopt;
      if (!n) return usage_error("probe", "--plies-in-class needs a whole number from 0 to 32");
      plies_in_class = static_cast<int>(*n);
      class_count_given = true;
    } else if (a == "--plies-since-conversion") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, kMaxPliesSinceConversion) : std::nullopt;
      if (!n) return usage_error("probe", "--plies-since-conversion needs a whole number from 0 to 49");
      plies_since_conversion = static_cast<int>(*n);
    } else if (const auto taken = tables_options.take(args, i)) {
      if (!taken->empty()) return usage_error("probe", *taken);
    } else if (a.starts_with("--")) {
      return unknown_option("probe", a);
    } else {
      fens.push_back(a);
    }
  }

  Tablebase tables;
  dtb_error e{};
  if (const dtb_status s = tables.open(tables_options.dir, tables_options.cache_bytes, &e);
      s != DTB_OK) {
    std::cerr << "dtb probe: " << failure_of(s, e).message << "\n";
    return 1;
  }
  bool failed = false;
  auto answer = [&](const std::string& fen) {
    const ProbeReport a = probe_report(tables, fen, plies_in_class, plies_since_conversion,
                                       class_count_given ? plies_in_class : -1);
    failed |= static_cast<bool>(a.failure);
    if (json)
      std::cout << report_json(a) << "\n";
    else
      print_plain(a, std::cout);
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

DTB_COMMAND("probe", "[options] [FEN ...]", "the value of positions and the moves that keep it",
            "For each FEN (from stdin, a line each, if none is given): win, draw or loss for the side to move "
            "and the moves that keep it; with .dtw/.rule tables also the distance to win and the 6.3/6.4 rule "
            "value, with .mtc tables also the moves to conversion and the move of perfect play",
            kProbeOptions, run_probe);

}  // namespace dtb::cli
