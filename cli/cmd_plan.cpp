// dtb plan --max-pieces N [options]: what building all tables up to N pieces involves - materials and positions
// per piece count, the build order with each table's size and level, and
// under the slice scheme (gen/cost_model.h) the peak memory, the disk and
// the time, per piece count, with the part that dominates each.
#include <charconv>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/args.h"
#include "cli/command.h"
#include "cluster/cluster_plan.h"
#include "gen/cost_model.h"
#include "gen/table_builder.h"
#include "index/material.h"
#include "index/plan.h"
#include "index/position_index.h"

namespace dtb::cli {
namespace {

constexpr long long kMaxPlanPieces = 10;

std::optional<double> parse_positive(const std::string& s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !(v > 0)) return std::nullopt;
  return v;
}

std::string gib(std::uint64_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << static_cast<double>(bytes) / (1ULL << 30) << " GiB";
  return out.str();
}

std::string unit_name(const std::vector<Material>& unit) {
  return unit.size() == 1 ? unit[0].name() : unit[0].name() + " + " + unit[1].name();
}

std::string hours(double seconds) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(seconds < 36000 ? 2 : 0) << seconds / 3600 << " h";
  return out.str();
}

// The slice generator's plan: memory, disk and time per piece count.
void print_slice_plan(int n, std::uint64_t budget, int threads, std::optional<double> rate, bool mtc) {
  const gen::BuildPlan plan = gen::plan_build(n, budget, threads, mtc);
  double scale = 1;  // --rate replaces the measured solving rate
  if (rate) scale = gen::kSolvePositionsPerThreadSecond * threads / *rate;
  std::cout << "\nslice generator, --memory " << (budget >> 20) << "M --threads " << threads << ":\n"
            << "pieces positions largest_unit unit_memory dominant_part solve write disk\n";
  for (const gen::PieceCountPlan& c : plan.counts)
    std::cout << c.pieces << " " << c.positions << " " << c.largest.unit.name() << " " << gib(c.largest.total())
              << " \"" << c.largest.dominant() << "\" " << hours(c.solve_seconds * scale) << " "
              << hours(c.write_seconds) << " " << std::fixed << std::setprecision(2) << c.disk_bytes / 1e9
              << " GB\n";
  const gen::PieceCountPlan& top = plan.counts.back();
  double solve = 0, write = 0;
  for (const gen::PieceCountPlan& c : plan.counts) solve += c.solve_seconds * scale, write += c.write_seconds;
  std::cout << "peak memory: " << gib(plan.peak) << " (largest unit " << top.largest.unit.name() << ": values "
            << gib(top.largest.values) << ", level " << gib(top.largest.level_state) << ", slice lists "
            << gib(top.largest.slice_lists) << ", writer " << gib(top.largest.writer)
            << (mtc ? ", MTC of a level " + gib(top.largest.mtc) : std::string()) << "; + "
            << (gen::kOverheadBytes >> 20) << " MiB overhead + " << (gen::kMappedPagesBytes >> 20)
            << " MiB mapped table pages + " << (gen::kMinCacheBytes >> 20)
            << " MiB least block cache); the rest of the bound keeps solved tables resident\n"
            << (plan.least_budget <= budget ? "fits the bound\n"
                                            : "does NOT fit the bound: needs --memory " +
                                                  std::to_string((plan.least_budget >> 20) + 1) + "M\n")
            << (mtc ? "MTC scratch files (--mtc): up to " + gib(top.mtc_scratch) +
                          " on disk while a unit is solved; the .mtc tables' disk and time are not modelled\n"
                    : std::string())
            << "disk: " << std::fixed << std::setprecision(2) << plan.disk_bytes() / 1e9 << " GB (at "
            << std::setprecision(3) << gen::disk_bits_per_position(5) << " bits/position up to 5 pieces, "
            << gen::disk_bits_per_position(6) << " from 6)\n"
            << "time: " << hours(solve + write) << " (solving " << hours(solve) << ", writing " << hours(write)
            << "): dominated by " << (solve >= write ? "solving" : "writing") << "\n";
  if (rate) std::cout << std::defaultfloat << "(solving time at " << *rate << " positions/s, from --rate)\n";
}

// The distributed build's model (cluster/cluster_plan.h) for `ranks` processes.
void print_cluster_plan(const gen::ClusterSetup& setup) {
  const gen::ClusterPlan plan = gen::plan_cluster_build(setup);
  std::cout << "\ndistributed build, mpirun -np " << setup.ranks << " (rank 0 coordinates, " << setup.ranks - 1
            << " solve with " << setup.threads << " threads each; " << std::defaultfloat << setup.bandwidth / 1e6
            << " MB/s from rank 0" << (setup.shared_dir ? "; a shared table directory" : "") << "):\n"
            << "units " << plan.units << ", parts of levels " << plan.parts << "\n"
            << "wall time: " << hours(plan.seconds) << " (longest chain of units, each level one part deep: "
            << hours(plan.critical_path) << ", which no number of ranks beats; workers busy " << std::fixed
            << std::setprecision(0) << 100 * plan.busy_fraction << "% of the time, rank 0's link "
            << 100 * plan.coordinator_busy << "% and its writing thread ("
            << (setup.ranks >= 3 ? "writes; the workers check the parts" : "checks and writes") << ") "
            << 100 * plan.writer_busy
            << "%)\n"
            << "memory per worker: " << gib(plan.worker_memory) << "; rank 0: " << gib(plan.coordinator_memory)
            << " (the values of the units in parts, within --memory)\n"
            << "bytes sent: " << std::setprecision(2) << plan.bytes_sent / 1e9
            << " GB (closures and parts to workers, tables and part values back to rank 0)\n"
            << "dominated by "
            << (plan.coordinator_busy >= 0.8 ? "rank 0's link: more ranks do not help"
                : plan.writer_busy >= 0.8
                    ? std::string(setup.ranks >= 3 ? "rank 0's writes" : "rank 0's checks and writes") +
                          ": more threads on rank 0 help, more ranks do not"
                : plan.critical_path >= 0.8 * plan.seconds ? "the longest chain of units: more ranks do not help"
                                                           : "solving: more ranks help")
            << "\n";
}

constexpr Option kPlanOptions[] = {
    {"--max-pieces", "N", "tables of up to N pieces, 2 to 10 (required)"},
    {"--memory", "SIZE", "the memory bound, e.g. 4G or 512M, at least 64M (default: a quarter of physical memory)"},
    {"--threads", "T", "solver threads (default: 2)"},
    {"--mtc", "", "with the .mtc tables (their scratch files; their disk and time are not modelled)"},
    {"--rate", "R", "solve R positions per second instead of the measured rate"},
    {"--ranks", "R", "also the build under mpirun -np R, R from 2: wall time, memory per rank, bytes sent"},
    {"--bandwidth", "B", "with --ranks: bytes per second from rank 0 (default: 1e9, a 10 Gbit/s link)"},
    {"--shared-dir", "", "with --ranks: every rank sees the table directory"},
};

int run_plan(const Args& args) {
  std::optional<long long> max_pieces;
  std::optional<double> rate;
  std::uint64_t budget = gen::default_memory_bytes();
  int threads = 2;
  std::optional<int> ranks;
  double bandwidth = 1e9;  // bytes/s: a 10 Gbit/s link
  bool shared_dir = false;
  bool mtc = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--max-pieces") {
      if (!has_value) return usage_error("plan", "--max-pieces needs a number");
      max_pieces = parse_int(args[++i], 2, kMaxPlanPieces);
      if (!max_pieces)
        return usage_error("plan", "--max-pieces must be a whole number from 2 to " +
                                       std::to_string(kMaxPlanPieces) + ", not '" + args[i] + "'");
    } else if (a == "--rate") {
      if (!has_value) return usage_error("plan", "--rate needs a number of positions per second");
      rate = parse_positive(args[++i]);
      if (!rate) return usage_error("plan", "--rate must be a positive number, not '" + args[i] + "'");
    } else if (a == "--memory" && has_value) {
      const auto bytes = parse_size(args[++i], std::uint64_t{64} << 20, std::uint64_t{1} << 50);
      if (!bytes) return usage_error("plan", "--memory must be a size such as 4G or 512M (at least 64M)");
      budget = *bytes;
    } else if (a == "--ranks" && has_value) {
      const auto r = parse_int(args[++i], 2, 1 << 20);
      if (!r) return usage_error("plan", "--ranks must be a whole number from 2 (one coordinator, one worker)");
      ranks = static_cast<int>(*r);
    } else if (a == "--mtc") {
      mtc = true;
    } else if (a == "--shared-dir") {
      shared_dir = true;
    } else if (a == "--bandwidth" && has_value) {
      const auto b = parse_positive(args[++i]);
      if (!b) return usage_error("plan", "--bandwidth must be a positive number of bytes per second");
      bandwidth = *b;
    } else if (a == "--threads" && has_value) {
      const auto t = parse_int(args[++i], 1, 1 << 20);
      if (!t) return usage_error("plan", "--threads must be a whole number from 1");
      threads = static_cast<int>(*t);
    } else {
      return a.starts_with("--") ? unknown_option("plan", a) : usage_error("plan", "unexpected argument '" + a + "'");
    }
  }
  if (!max_pieces) return usage_error("plan", "--max-pieces is required");
  const int n = static_cast<int>(*max_pieces);

  std::cout << "pieces materials positions (both sides to move)\n";
  for (const PieceCountSummary& s : summarize_by_piece_count(n))
    std::cout << s.pieces << " " << s.materials << " " << s.positions << "\n";

  std::cout << "\nbuild order: level material positions (White to move; a level's units can be"
               " built concurrently)\n";
  std::map<Material, std::size_t> level_of;
  std::vector<Material> largest;
  std::uint64_t largest_positions = 0;
  const auto levels = build_levels(n);
  for (std::size_t level = 0; level < levels.size(); ++level)
    for (const auto& unit : levels[level]) {
      for (const Material& m : unit) level_of[m] = level;
      const std::uint64_t positions = unit_positions(unit);
      if (positions > largest_positions) largest_positions = positions, largest = unit;
    }
  for (const Material& m : materials_in_build_order(n))
    std::cout << level_of.at(m) << " " << m.name() << " " << PositionIndex(m).size() << "\n";

  std::cout << "\nlargest build unit: " << unit_name(largest) << ", " << largest_positions << " positions\n";
  print_slice_plan(n, budget, threads, rate, mtc);
  if (ranks) print_cluster_plan({n, *ranks, threads, bandwidth, budget, shared_dir});
  return 0;
}

}  // namespace

DTB_COMMAND("plan", "--max-pieces N [options]", "what building the tables up to N pieces takes",
            "Materials, positions and the build order, then the slice generator's peak memory, disk and time "
            "per piece count, with the part that dominates each",
            kPlanOptions, run_plan);

}  // namespace dtb::cli
