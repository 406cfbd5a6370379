#include "gen/verifier.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include "compress/table_file.h"
#include "gen/checksums.h"
#include "gen/cost_model.h"
#include "gen/finished_tables.h"
#include "gen/interrupt.h"
#include "gen/progress_bar.h"
#include "gen/table_directory.h"
#include "gen/table_builder.h"
#include "gen/unit_solver.h"
#include "gen/wdl_store.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::gen {
namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

struct CheckedTable {
  Material material;
  PositionIndex index;
  std::vector<std::uint8_t> values;   // WDL | kCaptureFlag
  std::vector<std::uint8_t> pending;  // 1: a stored win/loss without a proof yet
  std::atomic<std::uint64_t> first_mismatch{kNone};
  explicit CheckedTable(const Material& m) : material(m), index(m) {}
};

void atomic_min(std::atomic<std::uint64_t>& a, std::uint64_t v) {
  std::uint64_t cur = a.load();
  while (v < cur && !a.compare_exchange_weak(cur, v)) {
  }
}

class UnitChecker {
 public:
  UnitChecker(std::vector<CheckedTable*> tables, const FinishedValues& store, ProgressBar& progress)
      : tables_(std::move(tables)), store_(store), progress_(progress) {}

  // Step 1 and step 2 of verifier.h; false with a message on the first failure.
  bool run(int& rounds, std::string& failure) {
    for (CheckedTable* t : tables_) {
      t->pending.assign(t->values.size(), 0);
      for (std::size_t i = 0; i < t->values.size(); ++i) {
        const std::uint8_t v = t->values[i];
        t->pending[i] = !(v & kCaptureFlag) && (v & kValueMask) != static_cast<std::uint8_t>(Wdl::Draw);
      }
    }
    rounds = 0;
    for (bool first = true;; first = false) {
      const std::uint64_t proven = round(first);
      if (interrupt_requested()) {
        failure = "interrupted";
        return false;
      }
      if (first && report_mismatch(failure)) return false;
      ++rounds;
      if (proven == 0) break;
    }
    return report_unproven(failure);
  }

 private:
  struct Successor {
    Wdl value;    // for the successor's side to move
    bool proven;  // a conversion, a draw, or a win/loss already proven
  };

  // A successor of White's move: Black to move. In this unit it is the
  // colour reversal of a White-to-move entry of one of the unit's tables.
  Successor successor(const Position& s) const {
    if (s.pieces(s.side) == 0) return {Wdl::Loss, true};
    const Position w = colour_reversed(s);
    const Material m = material_of(w);
    for (CheckedTable* t : tables_)
      if (t->material == m) {
        const std::uint64_t j = t->index.rank(w);
        const bool pending = std::atomic_ref<std::uint8_t>(t->pending[j]).load(std::memory_order_relaxed);
        return {static_cast<Wdl>(t->values[j] & kValueMask), !pending};
      }
    return {store_.value(s), true};
  }

  // Evaluate one position: its implied value (step 1) and whether its stored
  // win/loss has a proof now (step 2).
  void evaluate(CheckedTable& t, std::uint64_t i, bool check_consistency) {
    const Position p = t.index.unrank(i);
    const Wdl stored = static_cast<Wdl>(t.values[i] & kValueMask);
    // thread_local: a MoveList is 16 KB, and zero-filling one per position dominated the profile.
    thread_local MoveList list;
    generate_moves(p, list);
    Wdl implied = Wdl::Loss;
    bool win_proof = false, loss_proof = true;
    for (const Move& m : list) {
      const Successor s = successor(make_move(p, m));
      implied = std::max(implied, negate(s.value));
      win_proof |= s.value == Wdl::Loss && s.proven;
      loss_proof &= s.value == Wdl::Win && s.proven;
    }
    if (check_consistency && implied != stored) atomic_min(t.first_mismatch, i);
    const bool proof = stored == Wdl::Win ? win_proof : stored == Wdl::Loss && loss_proof;
    if (proof && implied == stored) std::atomic_ref<std::uint8_t>(t.pending[i]).store(0, std::memory_order_relaxed);
  }

  // One round over every position (the first, which also checks
  // consistency) or over the positions still waiting for a proof.
  std::uint64_t round(bool first) {
    std::uint64_t proven = 0;
    for (CheckedTable* t : tables_) {
      const std::int64_t n = static_cast<std::int64_t>(t->values.size());
      constexpr std::int64_t kChunk = 4096;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : proven)
      for (std::int64_t c = 0; c < (n + kChunk - 1) / kChunk; ++c) {
        if (interrupt_requested()) continue;
        const std::int64_t end = std::min(n, (c + 1) * kChunk);
        for (std::int64_t k = c * kChunk; k < end; ++k) {
          const std::uint64_t i = static_cast<std::uint64_t>(k);
          if (t->values[i] & kCaptureFlag) continue;  // derived from smaller tables by the loader
          std::atomic_ref<std::uint8_t> pending(t->pending[i]);
          if (!first && !pending.load(std::memory_order_relaxed)) continue;
          const bool was_pending = pending.load(std::memory_order_relaxed);
          evaluate(*t, i, first);
          proven += was_pending && !pending.load(std::memory_order_relaxed);
        }
        if (first) progress_.advance(static_cast<std::uint64_t>(end - c * kChunk));
      }
    }
    return proven;
  }

  static std::string describe(const CheckedTable& t, std::uint64_t i) {
    return t.material.name() + " index " + std::to_string(i) + ": " + to_fen(t.index.unrank(i));
  }

  bool report_mismatch(std::string& failure) const {
    for (const CheckedTable* t : tables_) {
      const std::uint64_t i = t->first_mismatch.load();
      if (i == kNone) continue;
      // Recompute the implied value for the message.
      const Position p = t->index.unrank(i);
      // thread_local: a MoveList is 16 KB, and zero-filling one per position dominated the profile.
      thread_local MoveList list;
      generate_moves(p, list);
      Wdl implied = Wdl::Loss;
      for (const Move& m : list) implied = std::max(implied, negate(successor(make_move(p, m)).value));
      failure = "value mismatch at " + describe(*t, i) + " stored " +
                std::string(to_string(static_cast<Wdl>(t->values[i] & kValueMask))) + ", its moves imply " +
                std::string(to_string(implied));
      return true;
    }
    return false;
  }

  bool report_unproven(std::string& failure) const {
    for (const CheckedTable* t : tables_) {
      const auto it = std::find(t->pending.begin(), t->pending.end(), 1);
      if (it == t->pending.end()) continue;
      const std::uint64_t i = static_cast<std::uint64_t>(it - t->pending.begin());
      failure = "unfounded value at " + describe(*t, i) + " stored " +
                std::string(to_string(static_cast<Wdl>(t->values[i] & kValueMask))) +
                ", but no finite forced line proves it (a self-consistent cycle)";
      return false;
    }
    return true;
  }

  std::vector<CheckedTable*> tables_;
  const FinishedValues& store_;
  ProgressBar& progress_;
};

bool check_checksums(const VerifyOptions& options, const std::vector<Material>& materials,
                     VerifyReport& report, std::string& failure) {
  if (!options.checksums_file.empty()) {
    ChecksumList expected;
    if (!read_checksum_list(options.checksums_file, expected, failure)) return false;
    for (const Material& m : materials) {
      const std::string name = m.name() + table_extension(TableKind::Wdl);
      const auto it = expected.find(name);
      if (it == expected.end()) {
        failure = name + " is not listed in " + options.checksums_file;
        return false;
      }
      std::uint64_t actual = 0;
      if (!file_xxh3(options.dir + "/" + name, actual, failure)) return false;
      if (actual != it->second) {
        failure = name + ": XXH3 " + format_hash(actual) + " differs from " + format_hash(it->second) +
                  " in " + options.checksums_file;
        return false;
      }
      ++report.checksums_compared;
    }
  }
  if (!options.write_checksums_file.empty()) {
    ChecksumList list;
    for (const Material& m : materials) {
      const std::string name = m.name() + table_extension(TableKind::Wdl);
      if (!file_xxh3(options.dir + "/" + name, list[name], failure)) return false;
    }
    if (!write_checksum_list(options.write_checksums_file, list, failure)) return false;
  }
  return true;
}

// A verified table's values, packed, to be kept resident for the units that read it.
std::unique_ptr<UnitValues> packed(const std::vector<std::uint8_t>& values) {
  auto out = std::make_unique<UnitValues>(values.size());
  UnitValues::Appender append(*out);
  for (std::uint64_t i = 0; i < values.size(); ++i)
    append.set(i, static_cast<Wdl>(values[i] & kValueMask), (values[i] & kCaptureFlag) != 0);
  return out;
}

}  // namespace

bool verify_tables(const VerifyOptions& options, VerifyReport& report, std::string& failure) {
  std::vector<Material> materials;
  if (!discover_tables(options.dir, materials, failure)) return false;
  ProgressBar progress("verify", total_positions(materials), options.show_progress);
  // Dependencies are read as `dtb gen` reads them: verified tables stay
  // resident while later units read them, the rest comes from the files
  // through the probe's block cache (finished_tables.h). So the verifier
  // holds the unit it checks (2 bytes a position) and a bounded rest, not
  // every table.
  int max_pieces = 0;
  std::vector<Material> units;
  for (const Material& m : materials) {
    max_pieces = std::max(max_pieces, m.pieces());
    if (m <= m.reversed()) units.push_back(m);
  }
  const std::uint64_t budget = default_memory_bytes();
  std::unique_ptr<FinishedTables> finished;
  try {
    finished = std::make_unique<FinishedTables>(options.dir, max_pieces, budget / 8, budget / 2);
  } catch (const std::exception& e) {
    failure = e.what();
    return false;
  }
  for (std::size_t k = 0; k < units.size(); ++k) {
    const Material& m = units[k];
    std::vector<std::unique_ptr<CheckedTable>> unit;
    std::vector<CheckedTable*> pointers;
    for (const Material& t : unit_of(m)) {
      unit.push_back(std::make_unique<CheckedTable>(t));
      progress.set_item(t.name());
      std::uint64_t bytes = 0;
      if (!load_checked(options.dir, t, *finished, unit.back()->values, bytes, failure)) return false;
      pointers.push_back(unit.back().get());
    }
    int rounds = 0;
    if (!UnitChecker(pointers, *finished, progress).run(rounds, failure)) return false;
    if (const auto e = finished->error()) {
      failure = *e;
      return false;
    }
    report.longest_proof_rounds = std::max(report.longest_proof_rounds, rounds);
    const std::vector<Material> remaining(units.begin() + static_cast<std::ptrdiff_t>(k) + 1, units.end());
    for (auto& t : unit) {
      report.positions += t->values.size();
      ++report.tables;
      finished->keep(t->material, packed(t->values), remaining);
      t->values = {};
    }
  }
  if (!check_checksums(options, materials, report, failure)) return false;
  progress.finish();
  return true;
}

}  // namespace dtb::gen
