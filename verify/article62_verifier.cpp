#include "verify/article62_verifier.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>

#include "verify/first_mismatch.h"
#include "support/large_array.h"
#include "gen/mtc_report.h"
#include "solver/mtc_values.h"
#include "solver/table_loading.h"
#include "index/colour.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::gen {
namespace {

constexpr int kBeyond = kArticle62Plies + 1;  // stored where nothing is forced within the count

class UnitR62Checker {
 public:
  UnitR62Checker(const std::vector<Material>& materials, const std::vector<const UnitValues*>& values,
                 const FinishedValues& exits, bool captures_keep_values)
      : values_(values), exits_(exits), captures_keep_values_(captures_keep_values) {
    for (const Material& m : materials) indexes_.emplace_back(m);
    stored_.resize(materials.size());
  }

  LargeArray<std::uint8_t>& stored(std::size_t t) { return stored_[t]; }

  // The first position of table t whose stored value is wrong, or kNoMismatch.
  std::uint64_t check(std::size_t t, ProgressBar* progress) const {
    return first_mismatch(indexes_[t].size(), progress, [&](std::uint64_t i) {
      const Wdl theory = values_[t]->value(i);
      if (theory == Wdl::Draw) return false;
      const bool capture = values_[t]->capture(i);
      if (captures_keep_values_ && capture) return stored_[t][i] != 1;  // article62_verifier.h
      const Position p = indexes_[t].unrank(i);
      return (capture ? implied(t, p, theory) : implied_quiet(t, p, theory)) != stored_[t][i];
    });
  }

  // What the moves of p (White to move, table t, theoretical value `theory`)
  // imply for its stored value.
  int implied(std::size_t t, const Position& p, Wdl theory) const {
    const std::size_t u = other(t);
    Costs c;
    for_each_move_outcome(
        p, indexes_[u], [&](const Position& after) { return exits_.value(after); },
        [&](std::uint64_t j) { return rule_value(u, j); }, [&](std::uint64_t j) { return int{stored_[u][j]}; },
        [&](Wdl mover, int cost) { c.add(mover, cost); });
    return c.implied(theory);
  }

  // implied() for a position that need not capture, the most of a unit:
  // every successor's index is known before any is read, so their stored
  // values are fetched together (scattered over the twin, each a likely
  // cache miss).
  int implied_quiet(std::size_t t, const Position& p, Wdl theory) const {
    const std::size_t u = other(t);
    thread_local MoveList list;  // 16 KB: one a thread, not one a position
    thread_local std::array<std::uint64_t, MoveList::kCapacity> index;
    thread_local std::array<bool, MoveList::kCapacity> king_move;
    generate_quiet_moves(p, list);
    for_each_quiet_successor(p, list, indexes_[u], [&](int k, std::uint64_t j, std::uint64_t kings_rank) {
      const auto at = static_cast<std::size_t>(k);
      index[at] = j;
      king_move[at] = kings_rank != kLeavesUnit;
      if (j == kLeavesUnit) return;
      values_[u]->prefetch_value(j);
      __builtin_prefetch(&stored_[u][j]);
    });
    Costs c;
    for (int k = 0; k < list.size; ++k) {
      const auto at = static_cast<std::size_t>(k);
      const std::uint64_t j = index[at];
      if (j == kLeavesUnit) {
        c.add(negate(exits_.value(make_move(p, list[k]))), 1);
      } else {
        c.add(negate(rule_value(u, j)), king_move[at] ? 1 + int{stored_[u][j]} : 1);
      }
    }
    return c.implied(theory);
  }

 private:
  // The costs of a position's moves, each with its value for the mover.
  struct Costs {
    int best = std::numeric_limits<int>::max(), worst = 0;
    bool all_lose = true;
    void add(Wdl mover, int cost) {
      all_lose = all_lose && mover == Wdl::Loss;
      worst = std::max(worst, cost);
      if (mover == Wdl::Win) best = std::min(best, cost);
    }
    // The stored value they imply for a position of theoretical value `theory`.
    int implied(Wdl theory) const {
      const int plies = theory == Wdl::Win ? best : all_lose ? worst : kBeyond;
      return plies <= kArticle62Plies ? plies : kBeyond;
    }
  };

  std::size_t other(std::size_t t) const { return indexes_.size() == 1 ? 0 : 1 - t; }
  // R: the 6.2 value from a fresh count of position j of table u.
  Wdl rule_value(std::size_t u, std::uint64_t j) const {
    const Wdl v = values_[u]->value(j);
    return v != Wdl::Draw && stored_[u][j] <= kArticle62Plies ? v : Wdl::Draw;
  }

  const std::vector<const UnitValues*>& values_;
  const FinishedValues& exits_;
  bool captures_keep_values_;
  std::vector<PositionIndex> indexes_;
  std::vector<LargeArray<std::uint8_t>> stored_;
};

}  // namespace

bool has_r62_table(const std::string& dir, const Material& m) {
  std::error_code ec;
  return std::filesystem::exists(r62_table_path(dir, m), ec);
}

bool captures_faithful(const Material& m, const std::map<Material, bool>& faithful) {
  for (const Material& d : direct_dependencies(m)) {
    if (d.pieces() >= m.pieces()) continue;  // a promotion's
    const auto it = faithful.find(d);
    if (it == faithful.end() || !it->second) return false;
  }
  return true;
}

bool verify_unit_r62(const std::string& dir, const std::vector<Material>& materials,
                     const std::vector<const UnitValues*>& values, const FinishedValues& exits,
                     bool captures_keep_values, ProgressBar* progress, std::string& failure) {
  UnitR62Checker checker(materials, values, exits, captures_keep_values);
  for (std::size_t t = 0; t < materials.size(); ++t)
    if (!load_mtc_values(dir, materials[t], checker.stored(t), failure, TableKind::Article62)) return false;
  for (std::size_t t = 0; t < materials.size(); ++t) {
    if (progress) progress->set_item(materials[t].name() + ".r62");
    const std::uint64_t i = checker.check(t, progress);
    if (i == kInterrupted) {
      failure = "interrupted";
      return false;
    }
    if (const auto e = exits.error()) {
      failure = materials[t].name() + ".r62: " + *e;
      return false;
    }
    if (i == kNoMismatch) continue;
    const Position p = PositionIndex(materials[t]).unrank(i);
    failure = materials[t].name() + ".r62: position " + std::to_string(i) + " (" + to_fen(p) + ", " +
              std::string(to_string(values[t]->value(i))) + ") stores " + std::to_string(checker.stored(t)[i]) +
              ", its moves imply " + std::to_string(checker.implied(t, p, values[t]->value(i)));
    return false;
  }
  return true;
}

}  // namespace dtb::gen
