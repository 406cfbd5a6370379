#include "gen/mtc_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "gen/finished_tables.h"
#include "gen/mtc_sidecar.h"
#include "solver/mtc_values.h"
#include "gen/table_builder.h"
#include "gen/table_discovery.h"
#include "solver/table_loading.h"
#include "solver/unit_values.h"

namespace dtb::gen {

namespace fs = std::filesystem;

namespace {

// One thread's share of the counts: histograms and the first position (in
// index order) of the longest win and loss it has seen.
struct PartialCounts {
  std::vector<std::uint64_t> win = std::vector<std::uint64_t>(kMaxMtc + 1);
  std::vector<std::uint64_t> loss = std::vector<std::uint64_t>(kMaxMtc + 1);
  std::uint64_t draw = 0;
  int longest_win = -1, longest_loss = -1;
  std::uint64_t longest_win_index = 0, longest_loss_index = 0;

  static void keep_longest(int plies, std::uint64_t i, int& longest, std::uint64_t& index) {
    if (plies > longest || (plies == longest && i < index)) longest = plies, index = i;
  }
  void add(const PartialCounts& o) {
    for (int k = 0; k <= kMaxMtc; ++k) win[k] += o.win[k], loss[k] += o.loss[k];
    draw += o.draw;
    if (o.longest_win >= 0) keep_longest(o.longest_win, o.longest_win_index, longest_win, longest_win_index);
    if (o.longest_loss >= 0) keep_longest(o.longest_loss, o.longest_loss_index, longest_loss, longest_loss_index);
  }
};

// Positions a thread reads at once: a few hundred KB of MTC.
constexpr std::uint64_t kCountChunk = std::uint64_t{1} << 18;

}  // namespace

MtcTableReport count_mtc_table(const Material& m, const UnitValues& values, const MtcReader& mtc,
                               bool captures_stored) {
  const std::uint64_t n = values.size();
  const auto chunks = static_cast<std::int64_t>((n + kCountChunk - 1) / kCountChunk);
  PartialCounts total;
#pragma omp parallel
  {
    PartialCounts mine;
    std::vector<std::uint8_t> plies(kCountChunk), capture(kCountChunk);
    std::vector<std::uint16_t> wdl(kCountChunk);
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::uint64_t first = static_cast<std::uint64_t>(c) * kCountChunk;
      const std::uint64_t count = std::min(kCountChunk, n - first);
      mtc(first, std::span(plies.data(), count));
      // By read(), not value(): spilled values then come from their file
      // without being mapped (unit_values.h).
      values.read(first, std::span(wdl.data(), count), std::span(capture.data(), count));
      for (std::uint64_t k = 0; k < count; ++k) {
        const std::uint64_t i = first + k;
        const auto v = static_cast<Wdl>(wdl[k]);
        if (v == Wdl::Draw) {
          ++mine.draw;
          continue;
        }
        const int p = capture[k] && !captures_stored ? 1 : plies[k];
        if (v == Wdl::Win) {
          ++mine.win[static_cast<std::size_t>(p)];
          PartialCounts::keep_longest(p, i, mine.longest_win, mine.longest_win_index);
        } else {
          ++mine.loss[static_cast<std::size_t>(p)];
          PartialCounts::keep_longest(p, i, mine.longest_loss, mine.longest_loss_index);
        }
      }
    }
#pragma omp critical(dtb_mtc_report)
    total.add(mine);
  }
  MtcTableReport r;
  r.material = m;
  r.positions = n;
  r.draw = total.draw;
  r.longest_win = total.longest_win, r.longest_win_index = total.longest_win_index;
  r.longest_loss = total.longest_loss, r.longest_loss_index = total.longest_loss_index;
  for (std::uint64_t c : total.win) r.win += c;
  for (std::uint64_t c : total.loss) r.loss += c;
  total.win.resize(static_cast<std::size_t>(r.longest_win + 1));
  total.loss.resize(static_cast<std::size_t>(r.longest_loss + 1));
  r.win_mtc = std::move(total.win);
  r.loss_mtc = std::move(total.loss);
  return r;
}

namespace {

// A table is exact when every table it converts into is faithful (its 6.2
// values from a fresh count are its theoretical ones): its dependencies
// (every capture and promotion, transitively, as build order has them) and,
// for a material with men, its own unit (a man move stays in it, one level
// up), which must then be clean. A kings-only table converts only into
// smaller ones. A table with its own `.r62` table is answered by it: exact.
void mark_exact(std::vector<MtcTableReport>& tables) {
  std::map<Material, MtcTableReport*> by_material;
  for (MtcTableReport& t : tables) by_material[t.material] = &t;
  for (MtcTableReport& t : tables) {  // in build order: dependencies first
    bool ok = true;
    for (const Material& d : direct_dependencies(t.material)) {
      const auto it = by_material.find(d);
      ok = ok && it != by_material.end() && it->second->faithful();
    }
    if (t.material.men() > 0)
      for (const Material& u : unit_of(t.material)) {
        const auto it = by_material.find(u);
        ok = ok && it != by_material.end() && it->second->clean();
      }
    t.exact = ok || t.has_r62;
  }
}

// The counts of m's `.r62` table (count_mtc_table with captures stored)
// into m's report.
void take_r62_counts(const MtcTableReport& r62, MtcTableReport& into) {
  into.has_r62 = true;
  into.win_r62 = r62.win_mtc;
  into.r62_longest = std::max(r62.longest_win, r62.longest_loss);
}

}  // namespace

std::uint64_t MtcTableReport::wins_drawn_at(int c) const {
  const std::vector<std::uint64_t>& plies = has_r62 ? win_r62 : win_mtc;
  std::uint64_t drawn = 0;
  for (std::size_t k = 0; k < plies.size(); ++k)
    if (static_cast<int>(k) > kArticle62Plies - c) drawn += plies[k];
  return drawn;
}

bool mtc_report(const std::string& dir, bool show_progress, bool recount, std::vector<MtcTableReport>& out,
                std::string& error) {
  std::vector<Material> materials;
  if (!discover_tables(dir, materials, error)) return false;
  int max_pieces = 0;
  for (const Material& m : materials) max_pieces = std::max(max_pieces, m.pieces());
  ProgressBar progress("mtc", total_positions(materials), show_progress);
  // Tables are loaded as `dtb verify` loads them: capture positions resolved
  // through the smaller tables, read back through the probe's block cache.
  const std::uint64_t budget = default_memory_bytes();
  std::unique_ptr<FinishedTables> finished;
  try {
    finished = std::make_unique<FinishedTables>(dir, max_pieces, budget / 8, budget / 2);
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  out.clear();
  for (std::size_t k = 0; k < materials.size(); ++k) {
    const Material& m = materials[k];
    progress.set_item(m.name());
    const bool r62 = fs::exists(r62_table_path(dir, m));
    if (!recount)
      if (auto recorded = read_mtc_sidecar(dir, m)) {
        const auto r62_counts = r62 ? read_mtc_sidecar(dir, m, TableKind::Article62) : std::nullopt;
        if (!r62 || r62_counts) {
          if (r62_counts) take_r62_counts(*r62_counts, *recorded);
          out.push_back(std::move(*recorded));
          progress.advance(out.back().positions);
          continue;  // later tables read its values from the file if they need them
        }
      }
    auto values = std::make_unique<UnitValues>(PositionIndex(m).size());
    std::uint64_t bytes = 0;
    if (!load_checked(dir, m, *finished, *values, bytes, error)) return false;
    for (const TableKind kind : {TableKind::Mtc, TableKind::Article62}) {
      if (kind == TableKind::Article62 && !r62) continue;
      LargeArray<std::uint8_t> plies;
      if (!load_mtc_values(dir, m, plies, error, kind)) return false;
      const MtcTableReport counts = count_mtc_table(
          m, *values,
          [&plies](std::uint64_t first, std::span<std::uint8_t> to) {
            std::copy_n(plies.data() + first, to.size(), to.begin());
          },
          kind == TableKind::Article62);
      if (kind == TableKind::Mtc)
        out.push_back(counts);
      else
        take_r62_counts(counts, out.back());
    }
    progress.advance(values->size());
    const std::vector<Material> remaining(materials.begin() + static_cast<std::ptrdiff_t>(k) + 1, materials.end());
    finished->keep(m, std::move(values), remaining);
  }
  if (const auto e = finished->error()) {
    error = *e;
    return false;
  }
  progress.finish();
  mark_exact(out);
  return true;
}

}  // namespace dtb::gen
