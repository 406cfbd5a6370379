#include "gen/table_stats.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "gen/finished_tables.h"
#include "support/progress_bar.h"
#include "gen/stats_sidecar.h"
#include "gen/table_discovery.h"
#include "solver/table_loading.h"

namespace dtb::gen {
namespace {

// Decoding a table reads its captures' successors in the smaller tables.
constexpr std::uint64_t kStatsCacheBytes = std::uint64_t{256} << 20;

}  // namespace

MaterialStats count_values(const Material& m, std::span<const std::uint8_t> values) {
  MaterialStats s;
  s.material = m;
  s.positions = values.size();
  // counts[capture][value]: value 3 never occurs. Parallel, like every other
  // pass over a whole table in `dtb gen` (a serial one is ~1 % of the build).
  std::uint64_t counts[2][4] = {};
  const std::int64_t n = static_cast<std::int64_t>(values.size());
#pragma omp parallel for schedule(static) reduction(+ : counts[:2][:4])
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint8_t v = values[static_cast<std::size_t>(i)];
    ++counts[(v & kCaptureFlag) ? 1 : 0][v & kValueMask];
  }
  s.captures = counts[1][0] + counts[1][1] + counts[1][2] + counts[1][3];
  s.loss = counts[0][0] + counts[1][0], s.draw = counts[0][1] + counts[1][1], s.win = counts[0][2] + counts[1][2];
  s.quiet_loss = counts[0][0], s.quiet_draw = counts[0][1], s.quiet_win = counts[0][2];
  return s;
}

bool collect_stats(const std::string& dir, bool show_progress, bool recount, std::vector<MaterialStats>& out,
                   std::string& error) {
  std::vector<Material> materials;
  if (!discover_tables(dir, materials, error)) return false;
  ProgressBar progress("stats", total_positions(materials), show_progress);
  std::unique_ptr<FinishedTables> smaller;  // opened only if some table must be decoded
  int max_pieces = 0;
  for (const Material& m : materials) max_pieces = std::max(max_pieces, m.pieces());
  out.clear();
  for (const Material& m : materials) {
    progress.set_item(m.name());
    const std::uint64_t positions = PositionIndex(m).size();
    if (!recount)
      if (const auto recorded = read_stats_sidecar(dir, m)) {
        out.push_back(*recorded);
        progress.advance(positions);
        continue;
      }
    try {
      if (!smaller) smaller = std::make_unique<FinishedTables>(dir, max_pieces, kStatsCacheBytes);
    } catch (const std::exception& e) {
      error = e.what();
      return false;
    }
    std::vector<std::uint8_t> values;
    std::uint64_t bytes = 0;
    if (!load_checked(dir, m, *smaller, values, bytes, error)) return false;
    if (const auto e = smaller->error()) {
      error = *e;
      return false;
    }
    MaterialStats s = count_values(m, values);
    s.bytes = bytes;
    out.push_back(s);
    progress.advance(positions);
  }
  progress.finish();
  return true;
}

std::string stats_as_json(const std::vector<MaterialStats>& stats) {
  std::ostringstream o;
  o << "[";
  for (std::size_t k = 0; k < stats.size(); ++k) {
    const MaterialStats& s = stats[k];
    o << (k ? ",\n " : "\n ") << "{\"material\": \"" << s.material.name() << "\", \"positions\": " << s.positions
      << ", \"captures\": " << s.captures << ", \"win\": " << s.win << ", \"draw\": " << s.draw
      << ", \"loss\": " << s.loss << ", \"quiet_win\": " << s.quiet_win << ", \"quiet_draw\": " << s.quiet_draw
      << ", \"quiet_loss\": " << s.quiet_loss << ", \"bytes\": " << s.bytes << ", \"longest_win_dtw\": ";
    // null without a .dtw table or without a win: never a length that is not one.
    if (s.longest_win_dtw >= 0) o << s.longest_win_dtw;
    else o << "null";
    o << "}";
  }
  o << "\n]\n";
  return o.str();
}

std::string stats_as_text(const std::vector<MaterialStats>& stats) {
  std::ostringstream o;
  char line[256];
  std::snprintf(line, sizeof line, "%-8s %12s %7s %7s %7s %7s %7s %7s %7s %11s %6s\n", "material", "positions",
                "capt%", "win%", "draw%", "loss%", "qwin%", "qdraw%", "qloss%", "bytes", "bits");
  o << line;
  MaterialStats total;
  auto pct = [](std::uint64_t a, std::uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; };
  auto row = [&](const std::string& name, const MaterialStats& s) {
    const std::uint64_t quiet = s.positions - s.captures;
    std::snprintf(line, sizeof line, "%-8s %12llu %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %11llu %6.3f\n",
                  name.c_str(), static_cast<unsigned long long>(s.positions), pct(s.captures, s.positions),
                  pct(s.win, s.positions), pct(s.draw, s.positions), pct(s.loss, s.positions),
                  pct(s.quiet_win, quiet), pct(s.quiet_draw, quiet), pct(s.quiet_loss, quiet),
                  static_cast<unsigned long long>(s.bytes), s.bits_per_position());
    o << line;
  };
  for (const MaterialStats& s : stats) {
    row(s.material.name(), s);
    total.positions += s.positions, total.captures += s.captures, total.bytes += s.bytes;
    total.win += s.win, total.draw += s.draw, total.loss += s.loss;
    total.quiet_win += s.quiet_win, total.quiet_draw += s.quiet_draw, total.quiet_loss += s.quiet_loss;
  }
  row("total", total);
  return o.str();
}

}  // namespace dtb::gen
