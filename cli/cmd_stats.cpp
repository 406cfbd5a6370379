// dtb stats [--json] [--quiet] [--recount] DIR[:DIR...]: per-material value counts and
// table sizes, from the counts recorded at build time (gen/stats_sidecar.h)
// or, with --recount or where none can be trusted, by decoding the tables.
#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/table_dir_view.h"
#include "gen/table_stats.h"
#include "drawrules/table_lookup.h"

namespace dtb::cli {
namespace {

constexpr Option kStatsOptions[] = {
    {"--tables", "DIR[:DIR...]", "the table directory, or several that hold one set (the same as DIR)"},
    {"--json", "", "JSON instead of text"},
    {"--quiet", "", "no progress on stderr"},
    {"--recount", "", "decode every table instead of trusting the counts recorded at build time"},
};

int run_stats(const Args& args) {
  bool json = false, progress = true, recount = false;
  std::string dir;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--quiet") {
      progress = false;
    } else if (a == "--recount") {
      recount = true;
    } else if (const auto taken = take_table_dir(args, i, dir)) {
      if (!taken->empty()) return usage_error("stats", *taken);
    } else {
      return unknown_option("stats", a);
    }
  }
  if (dir.empty()) return usage_error("stats", "expected a table directory");
  std::vector<gen::MaterialStats> stats;
  std::string error;
  TableDirView view;
  if (!view.open(dir, error) || !gen::collect_stats(view.dir(), progress, recount, stats, error)) {
    std::cerr << "dtb stats: " << view.named(error) << "\n";
    return 1;
  }
  // longest_win_dtw (plies) where drawrules/ wrote a .dtw table beside the .wdl one.
  for (gen::MaterialStats& s : stats) {
    TableError e;
    if (const auto longest = longest_win_in_file(view.dir(), s.material, &e)) s.longest_win_dtw = *longest;
    if (e && e.status != TableStatus::Missing) {
      std::cerr << "dtb stats: " << view.named(e.message) << "\n";
      return 1;
    }
  }
  std::cout << (json ? gen::stats_as_json(stats) : gen::stats_as_text(stats));
  return 0;
}

}  // namespace

DTB_COMMAND("stats", "[options] DIR[:DIR...]", "value counts and sizes of the tables, per material",
            "For White to move: positions, captures, win/draw/loss (all and quiet), the longest win "
            "where a .dtw table is present, and the size on disk; from the counts recorded at build time where "
            "they match the tables",
            kStatsOptions, run_stats);

}  // namespace dtb::cli
