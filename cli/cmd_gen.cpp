// dtb gen --max-pieces N [--out DIR] [--threads T] [--only MATERIAL] [--quiet]:
// build every missing WDL table up to N pieces (gen/table_builder.h).
#include <omp.h>

#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "gen/interrupt.h"
#include "gen/table_builder.h"

namespace dtb::cli {
namespace {

int run_gen(const Args& args) {
  gen::BuildOptions options;
  options.show_progress = true;
  int threads = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--quiet") {
      options.show_progress = false;
    } else if (a == "--max-pieces" && has_value) {
      const auto n = parse_int(args[++i], 2, 7);
      if (!n) return usage_error("gen", "--max-pieces must be a whole number from 2 to 7");
      options.max_pieces = static_cast<int>(*n);
    } else if (a == "--out" && has_value) {
      options.out_dir = args[++i];
    } else if (a == "--threads" && has_value) {
      const auto n = parse_int(args[++i], 1, 1024);
      if (!n) return usage_error("gen", "--threads must be a whole number from 1 to 1024");
      threads = static_cast<int>(*n);
    } else if (a == "--only" && has_value) {
      std::string error;
      options.only = parse_material(args[++i], &error);
      if (!options.only) return usage_error("gen", "bad material: " + error);
    } else {
      return usage_error("gen", "unexpected argument " + a);
    }
  }
  if (options.max_pieces == 0 && options.only) options.max_pieces = options.only->pieces();
  if (options.max_pieces == 0) return usage_error("gen", "--max-pieces is required");
  if (threads > 0) omp_set_num_threads(threads);

  gen::install_interrupt_handlers();
  gen::WdlStore store;
  gen::BuildSummary summary;
  std::string error;
  const gen::BuildStatus status = gen::build_tables(options, store, summary, error);
  for (const std::string& note : summary.notes) std::cerr << "dtb gen: " << note << "\n";
  if (status != gen::BuildStatus::Ok) {
    std::cerr << "dtb gen: " << error << "\n";
    return status == gen::BuildStatus::Interrupted ? 130 : 1;
  }
  std::cout << "tables in " << options.out_dir << ": " << summary.tables_built << " built, "
            << summary.tables_reused << " already present and checked\n";
  if (summary.tables_built > 0) {
    const double rate = static_cast<double>(summary.positions_solved) / summary.solve_seconds;
    std::cout << "solved " << summary.positions_solved << " positions in " << summary.solve_seconds
              << " s (" << rate / 1e6 << " M positions/s, " << omp_get_max_threads()
              << " threads); writing " << summary.write_seconds << " s; total " << summary.total_seconds
              << " s\n";
  }
  return 0;
}

}  // namespace

DTB_COMMAND("gen", "--max-pieces N [--out DIR] [--threads T] [--only MATERIAL] [--quiet]",
            "build every missing WDL table up to N pieces (default DIR: tables/)", run_gen);

}  // namespace dtb::cli
