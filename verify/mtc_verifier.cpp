#include "verify/mtc_verifier.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>

#include "verify/first_mismatch.h"
#include "support/large_array.h"
#include "solver/mtc_values.h"
#include "solver/slice_order.h"
#include "solver/table_loading.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::gen {
namespace {


class UnitMtcChecker {
 public:
  // mtc[t]: table t's stored MTC, a byte a position in index order.
  UnitMtcChecker(const std::vector<Material>& materials, const std::vector<const UnitValues*>& values,
                 const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished)
      : values_(values), finished_(finished), mtc_(mtc) {
    for (const Material& m : materials) indexes_.emplace_back(m);
  }

  // The first position of table t whose stored MTC is wrong, or kNoMismatch.
  std::uint64_t check(std::size_t t, ProgressBar* progress) const {
    return first_mismatch(indexes_[t].size(), progress, [&](std::uint64_t i) {
      if (values_[t]->capture(i) || values_[t]->value(i) == Wdl::Draw) return false;
      return implied_mtc(t, indexes_[t].unrank(i), values_[t]->value(i)) != mtc_[t][i];
    });
  }

  // The same over one part's slices of table t (sorted): the first wrong
  // position's index, or kNoMismatch.
  std::uint64_t check_part(std::size_t t, const std::vector<std::uint32_t>& slices) const {
    const std::uint64_t kps = indexes_[t].kings_per_slice();
    const auto index_of = [&](std::uint64_t k) { return std::uint64_t{slices[k / kps]} * kps + k % kps; };
    const std::uint64_t k = first_mismatch(slices.size() * kps, nullptr, [&](std::uint64_t local) {
      const std::uint64_t i = index_of(local);
      if (values_[t]->capture(i) || values_[t]->value(i) == Wdl::Draw) return false;
      return implied_mtc(t, indexes_[t].unrank(i), values_[t]->value(i)) != mtc_[t][i];
    });
    return k == kNoMismatch || k == kInterrupted ? k : index_of(k);
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
  const std::vector<std::span<const std::uint8_t>>& mtc_;
  std::vector<PositionIndex> indexes_;
};

}  // namespace

bool has_mtc_table(const std::string& dir, const Material& m) {
  std::error_code ec;
  return std::filesystem::exists(mtc_table_path(dir, m), ec);
}

bool verify_unit_mtc(const std::string& dir, const std::vector<Material>& materials,
                     const std::vector<const UnitValues*>& values, const FinishedValues& finished,
                     ProgressBar* progress, std::string& failure) {
  std::vector<LargeArray<std::uint8_t>> loaded(materials.size());
  std::vector<std::span<const std::uint8_t>> mtc;
  for (std::size_t t = 0; t < materials.size(); ++t) {
    if (!load_mtc_values(dir, materials[t], loaded[t], failure)) return false;
    mtc.emplace_back(loaded[t].data(), loaded[t].size());
  }
  return verify_unit_mtc_values(materials, values, mtc, finished, progress, failure);
}

namespace {

// The failure of table t's check, which found `i` (kNoMismatch: none).
bool report(const UnitMtcChecker& checker, const std::vector<Material>& materials,
            const std::vector<const UnitValues*>& values, const std::vector<std::span<const std::uint8_t>>& mtc,
            std::size_t t, std::uint64_t i, std::string& failure) {
  if (i == kInterrupted) {
    failure = "interrupted";
    return false;
  }
  if (i == kNoMismatch) return true;
  const PositionIndex index(materials[t]);
  const Position p = index.unrank(i);
  const int expected = checker.implied_mtc(t, p, values[t]->value(i));
  failure = materials[t].name() + ".mtc: position " + std::to_string(i) + " (" + to_fen(p) + ", " +
            std::string(to_string(values[t]->value(i))) + "; level " +
            std::to_string(advancement(p.men_of(Color::White), p.men_of(Color::Black))) + " slice " +
            std::to_string(i / index.kings_per_slice()) + ") stores MTC " + std::to_string(mtc[t][i]) +
            ", its moves imply " + std::to_string(expected);
  return false;
}

}  // namespace

bool verify_unit_mtc_values(const std::vector<Material>& materials, const std::vector<const UnitValues*>& values,
                            const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                            ProgressBar* progress, std::string& failure) {
  const UnitMtcChecker checker(materials, values, mtc, finished);
  for (std::size_t t = 0; t < materials.size(); ++t) {
    if (progress) progress->set_item(materials[t].name() + ".mtc");
    if (!report(checker, materials, values, mtc, t, checker.check(t, progress), failure)) return false;
  }
  return true;
}

bool verify_part_mtc_values(const std::vector<Material>& materials, const std::vector<std::vector<std::uint32_t>>& part,
                            const std::vector<const UnitValues*>& values,
                            const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                            std::string& failure) {
  const UnitMtcChecker checker(materials, values, mtc, finished);
  for (std::size_t t = 0; t < materials.size(); ++t)
    if (!report(checker, materials, values, mtc, t, checker.check_part(t, part.at(t)), failure)) return false;
  return true;
}

}  // namespace dtb::gen
