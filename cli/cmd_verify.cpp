// dtb verify [options] DIR[:DIR...]: re-derive every stored value independently of the
// generator (verify/verifier.h); --checksums-only compares the files' XXH3 with
// the list and stops there.
#include <omp.h>

#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/memory_reuse.h"
#include "cli/table_dir_view.h"
#include "support/interrupt.h"
#include "verify/verifier.h"
#include "verify/table_verifier.h"

namespace dtb::cli {
namespace {

// .mtc and .r62 files are compared where the list names them (verifier.h).
void print_unlisted(const gen::VerifyReport& report) {
  if (report.checksums_unlisted)
    std::cout << "; " << report.checksums_unlisted << " .mtc/.r62/.dtw/.rule files not in the list, not compared";
}

// On stderr before the first unit, as `dtb gen` prints its own plan.
void print_memory_plan(const gen::VerifyMemoryPlan& plan) {
  std::cerr << "dtb verify: memory bound " << (plan.budget >> 20) << " MiB (default: a quarter of physical memory; "
            << "--memory SIZE)\n";
  if (!plan.fits()) return;
  std::cerr << "dtb verify: largest unit to verify " << plan.largest.name() << ": " << (plan.largest_unit >> 20)
            << " MiB; block cache for tables read from files " << (plan.cache >> 20)
            << " MiB; verified tables kept in memory in what each unit leaves, up to "
            << (plan.budget / 2 >> 20) << " MiB\n";
}

constexpr Option kVerifyOptions[] = {
    {"--tables", "DIR[:DIR...]", "the table directory, or several that hold one set (the same as DIR)"},
    {"--checksums", "[FILE]", "first compare the files' XXH3 with the list in FILE (default: DIR/CHECKSUMS, the first "
                              "DIR that has one); "
                              ".mtc and .r62 files where it names them"},
    {"--write-checksums", "FILE", "write the files' checksums to FILE"},
    {"--checksums-only", "", "stop after the checksums: no value re-derived"},
    {"--journal", "FILE", "record each unit verified and how far the current one got; a rerun resumes there if the files are unchanged"},
    {"--memory", "SIZE", "memory bound, e.g. 8G or 512M, at least 64M (default: a quarter of physical memory)"},
    {"--threads", "T", "threads (default: one per core)"},
    {"--quiet", "", "no progress on stderr"},
};

int run_verify(const Args& args) {
  gen::VerifyOptions options;
  options.show_progress = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    // The value of --checksums may be left out: the next option is not it.
    const bool has_file = has_value && !args[i + 1].starts_with("--");
    if (a == "--quiet") {
      options.show_progress = false;
    } else if (a == "--checksums") {
      options.checksums_file = has_file ? args[++i] : std::string();
      if (options.checksums_file.empty()) options.checksums_file = "\x01";  // DIR/CHECKSUMS, below
    } else if (a == "--checksums-only") {
      options.checksums_only = true;
    } else if (a == "--journal" && has_value) {
      options.journal_file = args[++i];
    } else if (a == "--write-checksums" && has_value) {
      options.write_checksums_file = args[++i];
    } else if (a == "--memory" && has_value) {
      const auto bytes = parse_size(args[++i], std::uint64_t{64} << 20, std::uint64_t{1} << 50);
      if (!bytes) return usage_error("verify", "--memory must be a size such as 8G or 512M (at least 64M)");
      options.memory_bytes = *bytes;
    } else if (a == "--threads" && has_value) {
      const auto n = parse_int(args[++i], 1, 1024);
      if (!n) return usage_error("verify", "--threads must be a whole number from 1 to 1024");
      omp_set_num_threads(static_cast<int>(*n));
    } else if (const auto taken = take_table_dir(args, i, options.dir)) {
      if (!taken->empty()) return usage_error("verify", *taken);
    } else {
      return unknown_option("verify", a);
    }
  }
  if (options.dir.empty()) return usage_error("verify", "expected a table directory");
  if (options.checksums_only && options.checksums_file.empty() && options.write_checksums_file.empty())
    return usage_error("verify", "--checksums-only needs --checksums [FILE] or --write-checksums FILE");
  TableDirView view;
  std::string failure;
  if (!view.open(options.dir, failure)) {
    std::cerr << "dtb verify: FAILED: " << failure << "\n";
    return 1;
  }
  options.dir = view.dir();
  if (options.checksums_file == "\x01") options.checksums_file = options.dir + "/CHECKSUMS";

  if (options.show_progress && !options.checksums_only) options.on_memory_plan = print_memory_plan;
  keep_freed_memory();
  gen::install_interrupt_handlers();
  gen::VerifyReport report;
  if (!gen::verify_tables(options, report, failure)) {
    std::cerr << "dtb verify: FAILED: " << view.named(failure) << "\n";
    return 1;
  }
  const std::string checksums_file = view.named(options.checksums_file);
  if (options.checksums_only) {
    std::cout << report.tables << " tables (" << report.positions << " positions)";
    if (!options.checksums_file.empty())
      std::cout << ": " << report.checksums_compared << " checksums match " << checksums_file;
    print_unlisted(report);
    if (!options.write_checksums_file.empty()) std::cout << "; checksums written to " << options.write_checksums_file;
    std::cout << " (--checksums-only: no value re-derived)\n";
    return 0;
  }
  std::cout << "verified " << report.tables << " tables, " << report.positions
            << " positions: every value agrees with its successors and every win/loss has a finite proof"
            << " (longest: " << report.longest_proof_rounds << " rounds";
  if (report.units_proven_by_depth)
    std::cout << "; " << report.units_proven_by_depth << " units proven by their MTC depths instead";
  std::cout << ")";
  if (report.tables_from_journal)
    std::cout << "; " << report.tables_from_journal << " of the tables by an earlier run, as "
              << options.journal_file << " records, files unchanged";
  if (report.resumed_inside_unit)
    std::cout << "; one unit resumed where an earlier run stopped (" << report.levels_resumed
              << " levels passed before)";
  if (report.mtc_tables)
    std::cout << "; " << report.mtc_tables << " .mtc tables: every MTC agrees with its successors";
  if (report.r62_tables)
    std::cout << "; " << report.r62_tables << " .r62 tables: every article 6.2 value agrees with its successors";
  if (!options.checksums_file.empty())
    std::cout << "; " << report.checksums_compared << " checksums match " << checksums_file;
  print_unlisted(report);
  // .dtw and .rule tables (drawrules/) beside the .wdl ones: each value from its successors.
  DirectoryCheck limits;
  if (!verify_limits_directory(options.dir, limits, failure)) {
    std::cout << "\n";
    std::cerr << "dtb verify: FAILED: " << view.named(failure) << "\n";
    return 1;
  }
  if (limits.tables > 0)
    std::cout << "; " << limits.tables << " .dtw/.rule tables (" << limits.positions
              << " positions) agree with their successors";
  std::cout << "\n";
  return 0;
}

}  // namespace

DTB_COMMAND("verify", "[options] DIR[:DIR...]", "re-check every stored value and checksum of a table directory",
            "Every value is derived again from its successors, every win or loss needs a finite proof, and "
            "the .mtc, .r62, .dtw and .rule tables beside the .wdl ones are checked the same way",
            kVerifyOptions, run_verify);

}  // namespace dtb::cli
