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
// JSON writer is shared too (serve/report_json.h), the plain one is in
// probe_lines.cpp with the reading of the lines.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/probe_lines.h"
#include "rules/article62.h"
#include "serve/report_failure.h"

namespace dtb::cli {
namespace {

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
  ProbeLineOptions o;
  std::vector<std::string> fens;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      o.json = true;
    } else if (a == "--plies-in-class") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, 32) : std::nullopt;
      if (!n) return usage_error("probe", "--plies-in-class needs a whole number from 0 to 32");
      o.plies_in_class = static_cast<int>(*n);
      o.class_count_given = true;
    } else if (a == "--plies-since-conversion") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, kMaxPliesSinceConversion) : std::nullopt;
      if (!n) return usage_error("probe", "--plies-since-conversion needs a whole number from 0 to 49");
      o.plies_since_conversion = static_cast<int>(*n);
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
  bool ok = true;
  if (!fens.empty()) {
    for (const std::string& fen : fens) ok &= answer_probe_fen(tables, fen, o, std::cout);
  } else {
    ok = answer_probe_lines(tables, std::cin, o, std::cout);
  }
  return ok ? 0 : 1;
}

}  // namespace

DTB_COMMAND("probe", "[options] [FEN ...]", "the value of positions and the moves that keep it",
            "For each FEN (from stdin, a line each, if none is given): win, draw or loss for the side to move "
            "and the moves that keep it; with .dtw/.rule tables also the distance to win and the 6.3/6.4 rule "
            "value, with .mtc tables also the moves to conversion and the move of perfect play",
            kProbeOptions, run_probe);

}  // namespace dtb::cli
