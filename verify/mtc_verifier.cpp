#include "verify/mtc_verifier.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>

#include "verify/first_mismatch.h"
#include "support/large_array.h"
#include "solver/mtc_values.h"
#include "solver/table_loading.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::gen {
namespace {


class UnitMtcChecker {
 public:
  UnitMtcChecker(const std::vector<Material>& materials, const std::vector<const UnitValues*>& values,
                 const FinishedValues& finished)
      : values_(values), finished_(finished) {
    for (const Material& m : materials) indexes_.emplace_back(m);
    mtc_.resize(materials.size());
  }

  LargeArray<std::uint8_t>& mtc(std::size_t t) { return mtc_[t]; }

  // The first position of table t whose stored MTC is wrong, or kNoMismatch.
  std::uint64_t check(std::size_t t, ProgressBar* progress) const {
    return first_mismatch(indexes_[t].size(), progress, [&](std::uint64_t i) {
      if (values_[t]->capture(i) || values_[t]->value(i) == Wdl::Draw) return false;
      return implied_mtc(t, indexes_[t].unrank(i), values_[t]->value(i)) != mtc_[t][i];
    });
  }

  // What the moves of p (White to move, table t, no capture) imply for its MTC.
  int implied_mtc(std::size_t t, const Position& p, Wdl stored) const {
    const std::size_t u = other(t);
    int best = std::numeric_limits<int>::max(), worst = 0;
    for_each_move_outcome(
        p, indexes_[u], [&](const Position& after) { return finished_.value(after); },
        [&](std::uint64_t j) { return values_[u]->value(j); },
        [&](std::uint64_t j) { return values_[u]->capture(j) ? 1 : int{mtc_[u][j]}; },
        [&](Wdl mover, int cost) {
          worst = std::max(worst, cost);
          if (mover == Wdl::Win) best = std::min(best, cost);
        });
    return stored == Wdl::Win ? best : worst;
  }

 private:
  std::size_t other(std::size_t t) const { return indexes_.size() == 1 ? 0 : 1 - t; }

  const std::vector<const UnitValues*>& values_;
  const FinishedValues& finished_;
  std::vector<PositionIndex> indexes_;
  std::vector<LargeArray<std::uint8_t>> mtc_;
};

}  // namespace

bool has_mtc_table(const std::string& dir, const Material& m) {
  std::error_code ec;
  return std::filesystem::exists(mtc_table_path(dir, m), ec);
}

bool verify_unit_mtc(const std::string& dir, const std::vector<Material>& materials,
                     const std::vector<const UnitValues*>& values, const FinishedValues& finished,
                     ProgressBar* progress, std::string& failure) {
  UnitMtcChecker checker(materials, values, finished);
  for (std::size_t t = 0; t < materials.size(); ++t)
    if (!load_mtc_values(dir, materials[t], checker.mtc(t), failure)) return false;
  for (std::size_t t = 0; t < materials.size(); ++t) {
    if (progress) progress->set_item(materials[t].name() + ".mtc");
    const std::uint64_t i = checker.check(t, progress);
    if (i == kNoMismatch) continue;
    const Position p = PositionIndex(materials[t]).unrank(i);
    const int expected = checker.implied_mtc(t, p, values[t]->value(i));
    failure = materials[t].name() + ".mtc: position " + std::to_string(i) + " (" + to_fen(p) + ", " +
              std::string(to_string(values[t]->value(i))) + ") stores MTC " + std::to_string(checker.mtc(t)[i]) +
              ", its moves imply " + std::to_string(expected);
    return false;
  }
  return true;
}

}  // namespace dtb::gen
