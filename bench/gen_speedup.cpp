// Paired speed-up of `dtb gen`'s work: every unit up to N pieces solved
// (solver/unit_solver.h) and written (write_unit_tables) once with A threads and
// once with B (default 1 and 2), back to back.
//
//   bench_gen_speedup DIR [--pieces N] [--threads A B]
//
// DIR holds the finished tables up to N pieces (from `dtb gen`); they are
// loaded (checked) into memory first, so every unit's dependencies are there.
// The tables are written again into a scratch directory, deleted at the end.
//
// Why paired: this machine's speed drifts by 20-30 % over minutes (a 1-thread
// 2..5 build took 392 s one time and 469 s another), so two whole builds run
// minutes apart cannot give a ratio to better than that. Here each unit is
// solved with A and with B threads within seconds of each other, in
// alternating order (A first on even units, B first on odd ones) so a steady
// drift cancels out. Both solutions must also be byte-identical.
#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/memory_reuse.h"
#include "support/stopwatch.h"
#include "gen/finished_tables.h"
#include "gen/table_builder.h"
#include "solver/unit_solver.h"

namespace {

using namespace dtb;
struct Run {
  gen::UnitSolution solution;
  double solve = 0, write = 0;
};

// Solve and write the unit of m with `threads` threads; false if writing fails.
bool run(const Material& m, const gen::FinishedValues& store, int threads, const std::string& scratch, Run& out) {
  omp_set_num_threads(threads);
  gen::Stopwatch watch;
  gen::solve_unit(m, store, nullptr, out.solution);
  out.solve = watch.lap();
  if (TableError e = gen::write_unit_tables(scratch, out.solution)) {
    std::fprintf(stderr, "bench_gen_speedup: %s\n", e.message.c_str());
    return false;
  }
  out.write = watch.lap();
  return true;
}

int usage() {
  std::fprintf(stderr, "usage: bench_gen_speedup DIR [--pieces N] [--threads A B]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  gen::BuildOptions options;
  options.out_dir = argv[1];
  options.max_pieces = 5;
  int a = 1, b = 2;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--pieces" && i + 1 < argc) {
      options.max_pieces = std::atoi(argv[++i]);
    } else if (arg == "--threads" && i + 2 < argc) {
      a = std::atoi(argv[++i]);
      b = std::atoi(argv[++i]);
    } else {
      return usage();
    }
  }
  if (options.max_pieces < 2 || a < 1 || b < 1) return usage();

  cli::keep_freed_memory();  // as `dtb gen` does
  gen::BuildSummary summary;
  std::string error;
  if (gen::build_tables(options, summary, error) != gen::BuildStatus::Ok || summary.tables_built > 0) {
    std::fprintf(stderr, "bench_gen_speedup: %s needs every table up to %d pieces%s%s\n", options.out_dir.c_str(),
                 options.max_pieces, error.empty() ? "" : ": ", error.c_str());
    return 1;
  }

  // The finished tables read through the probe's cache, as `dtb gen` reads
  // tables it did not solve itself; 1 GiB holds the decoded 2-5 piece set.
  const gen::FinishedTables store(options.out_dir, options.max_pieces, std::uint64_t{1} << 30);
  namespace fs = std::filesystem;
  const std::string scratch = (fs::temp_directory_path() / ("bench_gen_speedup." + std::to_string(::getpid()))).string();
  fs::create_directories(scratch);
  struct Cleanup {
    std::string dir;
    ~Cleanup() { std::error_code ec; fs::remove_all(dir, ec); }
  } cleanup{scratch};

  std::printf("%-10s %11s %8s %8s %8s %8s %6s %6s %6s\n", "unit", "positions", "solve_A", "solve_B", "write_A",
              "write_B", "solve", "write", "both");
  Run total_a, total_b;
  int k = 0;
  for (const Material& m : gen::units_to_build(options)) {
    Run with_a, with_b;
    const bool a_first = k++ % 2 == 0;
    if (!run(m, store, a_first ? a : b, scratch, a_first ? with_a : with_b) ||
        !run(m, store, a_first ? b : a, scratch, a_first ? with_b : with_a))
      return 1;
    bool same = with_a.solution.values.size() == with_b.solution.values.size();
    for (std::size_t t = 0; same && t < with_a.solution.values.size(); ++t)
      same = *with_a.solution.values[t] == *with_b.solution.values[t];
    if (!same) {
      std::fprintf(stderr, "bench_gen_speedup: %s differs between %d and %d threads\n", m.name().c_str(), a, b);
      return 1;
    }
    std::uint64_t positions = 0;
    for (const auto& v : with_a.solution.values) positions += v->size();
    std::printf("%-10s %11llu %8.3f %8.3f %8.3f %8.3f %6.2f %6.2f %6.2f\n", m.name().c_str(),
                static_cast<unsigned long long>(positions), with_a.solve, with_b.solve, with_a.write, with_b.write,
                with_a.solve / with_b.solve, with_a.write / with_b.write,
                (with_a.solve + with_a.write) / (with_b.solve + with_b.write));
    std::fflush(stdout);
    total_a.solve += with_a.solve, total_a.write += with_a.write;
    total_b.solve += with_b.solve, total_b.write += with_b.write;
  }
  std::printf("all units, %d vs %d threads: solve %.1f / %.1f s = %.2fx, write %.1f / %.1f s = %.2fx, "
              "both %.2fx\n", a, b, total_a.solve, total_b.solve, total_a.solve / total_b.solve, total_a.write,
              total_b.write, total_a.write / total_b.write,
              (total_a.solve + total_a.write) / (total_b.solve + total_b.write));
  return 0;
}
