// dtb gen --max-pieces N [options]: build every missing WDL table up to N
// pieces (gen/table_builder.h), on many processes under mpirun
// (cluster/distributed_build.h); the options are listed in kGenOptions.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/memory_reuse.h"
#include "support/interrupt.h"
#include "gen/article62_builder.h"
#include "gen/checksums.h"
#include "gen/table_builder.h"
#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#ifdef DTB_MPI
#include "cluster/distributed_build.h"
#endif

namespace dtb::cli {
namespace {

// --dtw: .dtw tables for the same materials (drawrules/dtw_builder.h: the
// solver's distance policy, in memory, 2 bytes a position) and the .rule
// tables of the class materials built.
int build_limits_tables(const gen::BuildOptions& options) {
  const auto progress = [&options](const std::string& line) {
    if (options.show_progress) std::cerr << "dtb gen --dtw: " << line << "\n";
  };
  const TableSet dtw = options.only ? build_dtw(dependency_closure({*options.only}), progress)
                                    : build_dtw_up_to(options.max_pieces, progress);
  TableError e = dtw.write_all(options.out_dir);
  int written = static_cast<int>(dtw.materials().size());
  if (!e && !options.only) {  // the class materials of up to max_pieces pieces (6.4 from 3)
    const TableSet rules = build_rules(dtw, progress, std::min(options.max_pieces, 4));
    e = rules.write_all(options.out_dir);
    written += static_cast<int>(rules.materials().size());
  }
  if (e) {
    std::cerr << "dtb gen: " << e.message << "\n";
    return 1;
  }
  std::cout << "dtw/rule tables in " << options.out_dir << ": " << written << " written\n";
  return 0;
}

// One line per piece count: tables, positions, values, size on disk.
void print_summary(const std::vector<gen::MaterialStats>& tables) {
  std::map<int, gen::MaterialStats> by_pieces;
  std::map<int, int> count;
  for (const gen::MaterialStats& s : tables) {
    gen::MaterialStats& t = by_pieces[s.material.pieces()];
    t.positions += s.positions, t.captures += s.captures, t.bytes += s.bytes;
    t.win += s.win, t.draw += s.draw, t.loss += s.loss;
    ++count[s.material.pieces()];
  }
  std::printf("%6s %6s %14s %7s %7s %7s %7s %12s %6s\n", "pieces", "tables", "positions", "capt%", "win%",
              "draw%", "loss%", "bytes", "bits");
  for (const auto& [pieces, t] : by_pieces) {
    const double n = static_cast<double>(t.positions);
    std::printf("%6d %6d %14llu %7.2f %7.2f %7.2f %7.2f %12llu %6.3f\n", pieces, count[pieces],
                static_cast<unsigned long long>(t.positions), 100.0 * double(t.captures) / n,
                100.0 * double(t.win) / n, 100.0 * double(t.draw) / n, 100.0 * double(t.loss) / n,
                static_cast<unsigned long long>(t.bytes), t.bits_per_position());
  }
}

// --timings FILE: one tab-separated line per unit solved: where the time
// went. Written whole or not at all (a full disk names the file and why).
bool write_timings(const std::string& path, const std::vector<gen::UnitTiming>& units, std::string& error) {
  std::string text = "unit\tpositions\trounds\tallocate_s\tfirst_pass_s\tpropagate_s\tfinalize_s\twrite_s\n";
  for (const gen::UnitTiming& u : units) {
    char line[256];
    std::snprintf(line, sizeof line, "%s\t%llu\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", u.unit.name().c_str(),
                  static_cast<unsigned long long>(u.positions), u.rounds, u.solve.allocate, u.solve.first_pass,
                  u.solve.propagate, u.solve.finalize, u.write);
    text += line;
  }
  return gen::write_text_atomically(path, text, error);
}

// What a finished (or failed) build prints, and its exit code.
int report_build(gen::BuildStatus status, const gen::BuildOptions& options, const gen::BuildSummary& summary,
                 const std::string& timings, const std::string& error) {
  for (const std::string& note : summary.notes) std::cerr << "dtb gen: " << note << "\n";
  if (std::string why; !timings.empty() && !write_timings(timings, summary.units, why)) {
    std::cerr << "dtb gen: " << why << "\n";
    return 1;
  }
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
  std::cout << "White to move; values for the side to move:\n" << std::flush;
  print_summary(summary.tables);
  std::fflush(stdout);
  return 0;
}

// --article62: after the .wdl and .mtc tables, the .r62 tables of the units
// that MTC alone does not decide under article 6.2 (gen/article62_builder.h).
int build_article62(const gen::BuildOptions& options) {
  gen::Article62Summary summary;
  std::string error;
  const gen::BuildStatus status = gen::build_article62_tables(options, summary, error);
  if (status != gen::BuildStatus::Ok) {
    std::cerr << "dtb gen: " << error << "\n";
    return status == gen::BuildStatus::Interrupted ? 130 : 1;
  }
  std::cout << "article 6.2: " << summary.exact_units << " units decided by MTC (no .r62 needed), "
            << summary.solved.size() << " solved under the rule, " << summary.reused.size()
            << " already present and checked";
  for (const Material& m : summary.solved) std::cout << (m == summary.solved.front() ? ": " : ", ") << m.name();
  std::cout << " (" << summary.seconds << " s)\n" << std::flush;
  return 0;
}

// Options only a distributed build reads (`mpirun -np R dtb gen ...`).
struct ClusterOptions {
  bool shared_dir = false;
  std::string scratch, ranks_log;
  bool any() const { return shared_dir || !scratch.empty() || !ranks_log.empty(); }
};

#ifdef DTB_MPI
// Under mpirun with more than one rank: rank 0 coordinates and prints,
// the others solve (cluster/distributed_build.h). A failure on rank 0 ends
// the whole job, since workers may be in the middle of a unit.
std::optional<int> run_gen_distributed(const gen::BuildOptions& options, const ClusterOptions& cluster_options,
                                       const std::string& timings) {
  if (!cluster::launched_by_mpirun()) return std::nullopt;
  static cluster::MpiSession session;  // finalised at exit, after the summary is printed
  if (cluster::mpi_ranks() == 1) return std::nullopt;
  const bool coordinator = cluster::mpi_rank() == 0;
  gen::BuildOptions rank_options = options;
  rank_options.show_progress = options.show_progress && coordinator;
  cluster::DistributedOptions distributed{cluster_options.shared_dir, cluster_options.scratch,
                                          cluster_options.ranks_log};
  if (coordinator && rank_options.show_progress)
    std::cerr << "dtb gen: " << cluster::mpi_ranks() << " MPI ranks: rank 0 coordinates, "
              << cluster::mpi_ranks() - 1 << " solve with " << omp_get_max_threads() << " threads each"
              << (distributed.shared_dir ? "; shared table directory" : "; tables sent between ranks") << "\n";
  gen::BuildSummary summary;
  std::string error;
  const gen::BuildStatus status = cluster::build_distributed(rank_options, distributed, summary, error);
  if (!coordinator) return 0;
  const int code = report_build(status, rank_options, summary, timings, error);
  if (code != 0) cluster::abort_job(code);
  return code;
}
#endif

constexpr Option kGenOptions[] = {
    {"--max-pieces", "N", "build the tables of 2 to N pieces, N up to 7 (required unless --only)"},
    {"--out", "DIR", "where the tables are written and existing ones kept (default: tables)"},
    {"--threads", "T", "solver threads (default: one per core)"},
    {"--memory", "SIZE", "memory bound, e.g. 4G or 512M, at least 64M (default: a quarter of physical memory)"},
    {"--only", "MATERIAL", "only the unit of this material (e.g. KKvK) and the tables it depends on"},
    {"--kings-only", "", "only the materials without men"},
    {"--compact-states", "", "solve every kings-only unit in half a byte a position (slower; by default only "
                             "those too large for --memory)"},
    {"--spill-values", "", "keep the finished levels of every unit with men in scratch files (.values-work) "
                           "while it is solved (by default only units too large for --memory)"},
    {"--mtc", "", "also .mtc tables (moves to conversion, for perfect play); units built without them are "
                  "solved again"},
    {"--article62", "", "also .r62 tables for the units whose article 6.2 values MTC alone does not decide "
                        "(implies --mtc)"},
    {"--rule62", "", "deprecated: the same as --article62"},
    {"--dtw", "", "also .dtw tables (distance to win) and the 6.3/6.4 .rule tables"},
    {"--timings", "FILE", "write where each unit's time went (tab-separated)"},
    {"--quiet", "", "no progress on stderr"},
    {"--checkpoint-minutes", "M", "save a unit being solved after a level every M minutes (default 5; 0: every "
                                  "level); a rerun resumes there"},
    {"--shared-dir", "", "mpirun: every rank sees DIR (else tables are sent between ranks)"},
    {"--scratch", "DIR", "mpirun: where a worker keeps its tables (default: DIR/.rank-R)"},
    {"--ranks-log", "FILE", "mpirun: per unit its ranks, parts, time and bytes sent"},
};

int run_gen(const Args& args) {
  gen::BuildOptions options;
  ClusterOptions cluster_options;
  options.show_progress = true;
  int threads = 0;
  bool dtw = false;  // also distance to win (drawrules/), and the 6.3/6.4 rule tables
  bool article62 = false;  // also the article 6.2 tables where MTC does not decide
  std::string timings;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--quiet") {
      options.show_progress = false;
    } else if (a == "--kings-only") {
      options.kings_only = true;
    } else if (a == "--compact-states") {
      options.compact_states = true;
    } else if (a == "--spill-values") {
      options.spill_values = true;
    } else if (a == "--dtw") {
      dtw = true;
    } else if (a == "--mtc") {
      options.mtc = true;
    } else if (a == "--article62" || a == "--rule62") {
      options.mtc = true;
      article62 = true;
    } else if (a == "--max-pieces" && has_value) {
      const auto n = parse_int(args[++i], 2, 7);
      if (!n) return usage_error("gen", "--max-pieces must be a whole number from 2 to 7");
      options.max_pieces = static_cast<int>(*n);
    } else if (a == "--memory" && has_value) {
      const auto bytes = parse_size(args[++i], std::uint64_t{64} << 20, std::uint64_t{1} << 50);
      if (!bytes) return usage_error("gen", "--memory must be a size such as 4G or 512M (at least 64M)");
      options.memory_bytes = *bytes;
    } else if (a == "--checkpoint-minutes" && has_value) {
      const auto minutes = parse_int(args[++i], 0, 24 * 60);
      if (!minutes) return usage_error("gen", "--checkpoint-minutes must be a whole number from 0 to 1440");
      options.checkpoint_seconds = 60.0 * static_cast<double>(*minutes);
    } else if (a == "--shared-dir") {
      cluster_options.shared_dir = true;
    } else if (a == "--scratch" && has_value) {
      cluster_options.scratch = args[++i];
    } else if (a == "--ranks-log" && has_value) {
      cluster_options.ranks_log = args[++i];
    } else if (a == "--timings" && has_value) {
      timings = args[++i];
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
      return a.starts_with("--") ? unknown_option("gen", a) : usage_error("gen", "unexpected argument " + a);
    }
  }
  if (options.max_pieces == 0 && options.only) options.max_pieces = options.only->pieces();
  if (options.max_pieces == 0) return usage_error("gen", "--max-pieces is required");
  if (threads > 0) omp_set_num_threads(threads);

  keep_freed_memory();
  gen::install_interrupt_handlers();
  if (options.show_progress)
    std::cerr << "dtb gen: memory bound " << ((options.memory_bytes ? options.memory_bytes : gen::default_memory_bytes()) >> 20)
              << " MiB" << (options.memory_bytes ? "" : " (default: a quarter of physical memory; --memory SIZE)") << "\n";
#ifdef DTB_MPI
  if (const auto code = run_gen_distributed(options, cluster_options, timings)) {
    if (*code != 0 || cluster::mpi_rank() != 0) return *code;
    return dtw ? build_limits_tables(options) : 0;  // rank 0 alone: drawrules/ has no distributed build
  }
#else
  if (cluster_options.any())
    return usage_error("gen", "--shared-dir, --scratch and --ranks-log are for mpirun builds; this dtb was built "
                              "without MPI (cmake -DDTB_MPI=ON)");
#endif
  gen::BuildSummary summary;
  std::string error;
  const gen::BuildStatus status = gen::build_tables(options, summary, error);
  if (const int code = report_build(status, options, summary, timings, error)) return code;
  if (article62)
    if (const int code = build_article62(options)) return code;
  return dtw ? build_limits_tables(options) : 0;
}

}  // namespace

DTB_COMMAND("gen", "--max-pieces N [options]", "build every missing table up to N pieces",
            "Tables already in DIR are checked and kept. Under mpirun (a dtb built with -DDTB_MPI=ON) every "
            "rank but 0 solves: units with men level by level in parts of slices, kings-only units whole",
            kGenOptions, run_gen);

}  // namespace dtb::cli
