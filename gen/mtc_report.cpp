#include "gen/mtc_report.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "gen/finished_tables.h"
#include "gen/mtc_values.h"
#include "gen/table_builder.h"
#include "gen/table_directory.h"
#include "gen/unit_values.h"

namespace dtb::gen {
namespace {

// The histograms of one table: its values (captures resolved) and its MTC
// (capture positions: 1, every move converts).
MtcTableReport count_table(const Material& m, const UnitValues& values, const LargeArray<std::uint8_t>& mtc) {
  MtcTableReport r;
  r.material = m;
  r.positions = values.size();
  constexpr int kSize = kMaxMtc + 1;
  std::vector<std::uint64_t> win(kSize), loss(kSize);
  const auto n = static_cast<std::int64_t>(values.size());
#pragma omp parallel
  {
    std::vector<std::uint64_t> w(kSize), l(kSize);
    std::uint64_t draws = 0;
#pragma omp for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) {
      const auto i = static_cast<std::uint64_t>(k);
      const Wdl v = values.value(i);
      if (v == Wdl::Draw) {
        ++draws;
        continue;
      }
      const int plies = values.capture(i) ? 1 : mtc[i];
      ++(v == Wdl::Win ? w : l)[static_cast<std::size_t>(plies)];
    }
#pragma omp critical(dtb_mtc_report)
    {
      for (int k = 0; k < kSize; ++k) win[k] += w[k], loss[k] += l[k];
      r.draw += draws;
    }
  }
  auto longest = [](const std::vector<std::uint64_t>& h) {
    for (int k = static_cast<int>(h.size()) - 1; k >= 0; --k)
      if (h[static_cast<std::size_t>(k)]) return k;
    return -1;
  };
  r.longest_win = longest(win);
  r.longest_loss = longest(loss);
  for (std::uint64_t c : win) r.win += c;
  for (std::uint64_t c : loss) r.loss += c;
  win.resize(static_cast<std::size_t>(r.longest_win + 1));
  loss.resize(static_cast<std::size_t>(r.longest_loss + 1));
  r.win_mtc = std::move(win);
  r.loss_mtc = std::move(loss);
  // The first position of each maximum, in index order (a deterministic example).
  bool need_win = r.longest_win >= 0, need_loss = r.longest_loss >= 0;
  for (std::uint64_t i = 0; i < values.size() && (need_win || need_loss); ++i) {
    const Wdl v = values.value(i);
    if (v == Wdl::Draw) continue;
    const int plies = values.capture(i) ? 1 : mtc[i];
    if (need_win && v == Wdl::Win && plies == r.longest_win) r.longest_win_index = i, need_win = false;
    if (need_loss && v == Wdl::Loss && plies == r.longest_loss) r.longest_loss_index = i, need_loss = false;
  }
  return r;
}

// A table is exact when every table it converts into is clean: its
// dependencies (every capture and promotion, transitively, as build order
// has them) and, for a material with men, its own unit (a man move stays in
// it, one level up). A kings-only table converts only into smaller ones.
void mark_exact(std::vector<MtcTableReport>& tables) {
  std::map<Material, const MtcTableReport*> by_material;
  for (const MtcTableReport& t : tables) by_material[t.material] = &t;
  std::map<Material, bool> exact;  // filled in build order: dependencies first
  for (MtcTableReport& t : tables) {
    bool ok = true;
    for (const Material& d : direct_dependencies(t.material)) {
      const auto it = by_material.find(d);
      ok = ok && it != by_material.end() && it->second->clean() && exact[d];
    }
    if (t.material.men() > 0)
      for (const Material& u : unit_of(t.material)) {
        const auto it = by_material.find(u);
        ok = ok && it != by_material.end() && it->second->clean();
      }
    exact[t.material] = ok;
  }
  for (MtcTableReport& t : tables) t.exact = exact[t.material];
}

}  // namespace

std::uint64_t MtcTableReport::wins_drawn_at(int c) const {
  std::uint64_t drawn = 0;
  for (std::size_t k = 0; k < win_mtc.size(); ++k)
    if (static_cast<int>(k) > kArticle62Plies - c) drawn += win_mtc[k];
  return drawn;
}

bool mtc_report(const std::string& dir, bool show_progress, std::vector<MtcTableReport>& out, std::string& error) {
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
    auto values = std::make_unique<UnitValues>(PositionIndex(m).size());
    std::uint64_t bytes = 0;
    if (!load_checked(dir, m, *finished, *values, bytes, error)) return false;
    LargeArray<std::uint8_t> mtc;
    if (!load_mtc_values(dir, m, mtc, error)) return false;
    out.push_back(count_table(m, *values, mtc));
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
