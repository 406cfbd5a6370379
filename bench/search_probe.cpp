// Probes shaped like an engine's search: a small alpha-beta search from
// random positions of 7 to 9 pieces probes the tables at every node where
// they may apply, as an engine would: as many pieces as the largest table,
// or up to two more with a capture forced (Tablebase::kCaptureReach) and takes the tables'
// value there instead of searching on. What an engine pays for a probe is
// then measured under the access pattern it really has (successive probes
// of one line share blocks; sibling lines mostly do not) and a bounded cache.
//
//   build/bench/bench_search_probe TABLES [--cache 64M] [--threads 1] [--seconds 20] [--depth 6] [--seed 1]
//
// Prints probes per second (of the threads' time spent probing, and of the
// wall clock with the search around them), the share of probes answered,
// blocks decoded per probe (1 − that is the cache's hit rate, counted in
// blocks), and the latency of one probe: p50, p99, p99.9 and max, each
// timed with steady_clock (about 20 ns of the figure is the clock).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "index/material.h"
#include "index/position_index.h"
#include "probe/tablebase.h"
#include "rules/movegen.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string tables;
  std::size_t cache_bytes = std::size_t{64} << 20;
  int threads = 1, depth = 6;
  double seconds = 20;
  std::uint64_t seed = 1;
};

// Each thread's record: probe latencies (ns) and counts.
struct ThreadRecord {
  std::vector<std::uint32_t> latencies;
  std::uint64_t probes = 0, answered = 0, nodes = 0, roots = 0;
  double probe_seconds = 0;
};

constexpr int kWin = 10000;

class Searcher {
 public:
  Searcher(dtb::probe::Tablebase& tables, ThreadRecord& record, Clock::time_point stop)
      : tables_(tables), record_(record), stop_(stop), reach_(tables.max_pieces() + dtb::probe::Tablebase::kCaptureReach) {}

  int search(const dtb::Position& p, int depth, int alpha, int beta) {
    ++record_.nodes;
    const int pieces = dtb::popcount(p.white | p.black);
    if (pieces <= tables_.max_pieces() || (pieces <= reach_ && dtb::has_capture(p))) {
      if (const auto v = probe(p)) return *v;
    }
    dtb::MoveList moves;
    dtb::generate_moves(p, moves);
    if (moves.size == 0) return -kWin;  // no move: lost (RULES 7.2)
    if (depth == 0 || (record_.nodes % 1024 == 0 && Clock::now() >= stop_)) return material(p);
    for (const dtb::Move& m : moves) {
      const int v = -search(dtb::make_move(p, m), depth - 1, -beta, -alpha);
      if (v >= beta) return v;
      alpha = std::max(alpha, v);
    }
    return alpha;
  }

 private:
  std::optional<int> probe(const dtb::Position& p) {
    dtb::Wdl wdl{};
    dtb::probe::ProbeError error;
    const auto t0 = Clock::now();
    const dtb_status status = tables_.wdl(p, wdl, &error);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
    record_.latencies.push_back(static_cast<std::uint32_t>(std::min<long long>(ns, UINT32_MAX)));
    record_.probe_seconds += static_cast<double>(ns) * 1e-9;
    ++record_.probes;
    if (status != DTB_OK) return std::nullopt;  // too many pieces without a forced capture: search on
    ++record_.answered;
    return wdl == dtb::Wdl::Win ? kWin : wdl == dtb::Wdl::Loss ? -kWin : 0;
  }

  // Men 100, kings 300, for the side to move.
  static int material(const dtb::Position& p) {
    const auto score = [&](dtb::Color c) {
      return 100 * dtb::popcount(p.men_of(c)) + 300 * dtb::popcount(p.kings_of(c));
    };
    return score(p.side) - score(dtb::opposite(p.side));
  }

  dtb::probe::Tablebase& tables_;
  ThreadRecord& record_;
  Clock::time_point stop_;
  int reach_;
};

// Random positions of 7 to 9 pieces, men and kings of both sides, either side to move.
dtb::Position random_root(std::mt19937_64& rng) {
  static const std::vector<dtb::PositionIndex> indexes = [] {
    std::vector<dtb::PositionIndex> out;
    for (const char* name : {"KMMMvKMM", "MMMMvMMM", "KKMMvKMM", "KMMMvMMMM", "MMMMMvMMMM", "KMMMMvKMMM"})
      out.emplace_back(*dtb::parse_material(name));
    return out;
  }();
  const dtb::PositionIndex& index = indexes[rng() % indexes.size()];
  dtb::Position p = index.unrank(rng() % index.size());
  return (rng() & 1) ? dtb::colour_reversed(p) : p;
}

void run_thread(dtb::probe::Tablebase& tables, const Options& o, int t, Clock::time_point stop, ThreadRecord& r) {
  std::mt19937_64 rng(o.seed * 7919 + static_cast<std::uint64_t>(t));
  Searcher searcher(tables, r, stop);
  while (Clock::now() < stop) {
    const dtb::Position root = random_root(rng);
    for (int d = 1; d <= o.depth && Clock::now() < stop; ++d) searcher.search(root, d, -kWin - 1, kWin + 1);
    ++r.roots;
  }
}

std::size_t parse_size(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  const std::string unit = end ? end : "";
  const double scale = unit == "G" ? 1 << 30 : unit == "M" ? 1 << 20 : unit == "K" ? 1 << 10 : 1;
  return static_cast<std::size_t>(v * scale);
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--cache" && value) o.cache_bytes = parse_size(argv[++i]);
    else if (a == "--threads" && value) o.threads = std::atoi(argv[++i]);
    else if (a == "--seconds" && value) o.seconds = std::atof(argv[++i]);
    else if (a == "--depth" && value) o.depth = std::atoi(argv[++i]);
    else if (a == "--seed" && value) o.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a.rfind("--", 0) != 0 && o.tables.empty()) o.tables = a;
    else return false;
  }
  return !o.tables.empty() && o.threads > 0 && o.depth > 0 && o.seconds > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: bench_search_probe TABLES [--cache 64M] [--threads 1] [--seconds 20] [--depth 6] [--seed 1]\n");
    return 2;
  }
  std::unique_ptr<dtb::probe::Tablebase> tables;
  dtb::probe::ProbeError error;
  if (dtb::probe::Tablebase::open(o.tables, o.cache_bytes, 0, tables, &error) != DTB_OK) {
    std::fprintf(stderr, "bench_search_probe: %s\n", error.message.c_str());
    return 1;
  }
  std::vector<ThreadRecord> records(static_cast<std::size_t>(o.threads));
  const auto start = Clock::now();
  const auto stop = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t)
    threads.emplace_back(run_thread, std::ref(*tables), std::cref(o), t, stop, std::ref(records[static_cast<std::size_t>(t)]));
  for (std::thread& t : threads) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();

  ThreadRecord all;
  for (const ThreadRecord& r : records) {
    all.latencies.insert(all.latencies.end(), r.latencies.begin(), r.latencies.end());
    all.probes += r.probes, all.answered += r.answered, all.nodes += r.nodes, all.roots += r.roots;
    all.probe_seconds += r.probe_seconds;
  }
  if (all.probes == 0) {
    std::fprintf(stderr, "bench_search_probe: no probe in %.0f s (tables of %d pieces)\n", wall, tables->max_pieces());
    return 1;
  }
  std::sort(all.latencies.begin(), all.latencies.end());
  const auto at = [&](double q) { return all.latencies[static_cast<std::size_t>(q * double(all.latencies.size() - 1))]; };
  const double decodes = static_cast<double>(tables->blocks_decoded()) / static_cast<double>(all.probes);
  std::printf("tables %s (up to %d pieces), cache %zu MiB, %d thread(s), depth %d, %.1f s\n", o.tables.c_str(),
              tables->max_pieces(), o.cache_bytes >> 20, o.threads, o.depth, wall);
  std::printf("roots %llu, nodes %llu, probes %llu (%.1f%% of nodes), answered %.1f%%\n",
              static_cast<unsigned long long>(all.roots), static_cast<unsigned long long>(all.nodes),
              static_cast<unsigned long long>(all.probes), 100.0 * double(all.probes) / double(all.nodes),
              100.0 * double(all.answered) / double(all.probes));
  std::printf("probes/s: %.0f per thread-second probing, %.0f of wall clock with the search\n",
              double(all.probes) / all.probe_seconds, double(all.probes) / wall);
  std::printf("blocks decoded per probe %.4f (block hit rate %.2f%%)\n", decodes, 100.0 * (1.0 - decodes));
  std::printf("latency ns: p50 %u, p99 %u, p99.9 %u, max %u\n", at(0.5), at(0.99), at(0.999), all.latencies.back());
  return 0;
}
