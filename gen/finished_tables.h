// FinishedValues read back from the table files of the build directory,
// through the probe library (probe/tablebase.h): its reader checks every
// block's checksum, its cache keeps decoded blocks in a fixed budget, and it
// resolves the "don't care" positions (side to move must capture) by searching
// the captures. So `dtb gen` holds no store of every finished table, and
// reads them the way every engine will.
//
// Resident tables. A table just solved is already in memory with its true
// values (unit_values.h). Reading it back through the probe costs ~5x more
// per lookup (a capture check of the position, then the cache's hashing and
// version checks; measured on the 2-4 set: first pass 9.3 s instead of 4.7 s),
// so the builder keeps such values resident while later units still need
// them, within a byte budget: keep() drops at once what no remaining unit
// reads, and over budget what is read last (the build order is known, so
// this is Belady's optimal choice). Lookups of resident tables are a rank and
// a read.
//
// Tables loaded from files (the article 6.2 phase, article62_builder.cpp)
// may be kept with their values as stored: capture positions not resolved
// at load, which spares unranking every position, but tested for a capture
// and resolved by search on every lookup. Worth it for a table read at few
// of its positions (one that only promotions lead into); a table that
// captures lead into is read all over and is kept resolved.
//
// Mapped pages. The probe's reader maps each table file and decodes blocks
// straight from the mapping; every page a decode touches (and up to 64 KB
// around it, the kernel's fault-around) would stay in this process's RSS
// until the end. So every kBlocksBetweenPageDrops decodes from the files,
// those pages are dropped (Tablebase::drop_mapped_pages), which keeps them
// within kMappedPagesBytes (cost_model.h) of the memory bound.
//
// Errors: value() is called from inside OpenMP loops, where nothing may be
// thrown. A failed read (a table damaged or deleted under the build) is
// remembered, the lookup answers a draw, and the solver checks error() after
// each phase and abandons the unit with that message: nothing solved from a
// failed read is ever written.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gen/mapped_pages_bound.h"
#include "solver/finished_values.h"
#include "solver/unit_values.h"
#include "index/material.h"
#include "index/position_index.h"

namespace dtb::probe {
class Tablebase;
}

namespace dtb::gen {

class FinishedTables final : public FinishedValues {
 public:
  /// Tables of up to `max_pieces` pieces in `dir`, read when first needed
  /// through a block cache of `cache_bytes`; at most `resident_bytes` of
  /// solved tables kept in memory. Throws std::runtime_error if the directory
  /// or the cache cannot be had.
  FinishedTables(const std::string& dir, int max_pieces, std::uint64_t cache_bytes,
                 std::uint64_t resident_bytes = 0);
  ~FinishedTables() override;

  Wdl value(const Position& p) const override;
  std::optional<std::string> error() const override;

  /// How kept values stand at capture positions: their true values, or the
  /// values as stored in the file (table_loading.h: load_stored_values),
  /// resolved on each lookup.
  enum class Captures { Resolved, ResolvedOnLookup };

  /// Keep the values of a table just solved and written (or loaded), if the
  /// budget allows, given the units still to solve, in order. Not
  /// concurrently with value().
  void keep(const Material& m, std::unique_ptr<UnitValues> values, const std::vector<Material>& remaining_units,
            Captures captures = Captures::Resolved);
  std::uint64_t resident_bytes() const { return resident_bytes_; }
  std::uint64_t resident_budget() const { return resident_budget_; }
  bool is_resident(const Material& m) const;
  /// Resident with its capture positions resolved (Captures::Resolved).
  bool is_resident_resolved(const Material& m) const;
  /// Drop at once the resident tables that no unit of `remaining_units` reads.
  void release_unread(const std::vector<Material>& remaining_units);
  /// Keep at most `bytes` resident from now on, dropping at once what is
  /// over (those read last by `remaining_units`, as keep() does). The
  /// verifier sets it before each unit to what the bound leaves beside that
  /// unit's own arrays, which differ from unit to unit.
  void set_resident_budget(std::uint64_t bytes, const std::vector<Material>& remaining_units);

  /// The tables a unit reads while it is solved: those its captures and
  /// promotions lead into, and theirs once more (a capture position reached
  /// by a capture is resolved by its own captures). Deeper chains are rare
  /// and go through the probe.
  static std::set<Material> tables_read_by(const Material& unit);

 private:
  struct Resident {
    PositionIndex index;
    std::unique_ptr<UnitValues> values;
    Captures captures;
  };
  static constexpr int kSlots = 8 * 8 * 8 * 8;  // by piece counts, each 0..7
  static int slot(const Material& m);
  const Resident* resident_of(const Material& m) const;  // nullptr: not resident
  void evict_until_within_budget(const std::vector<Material>& remaining_units);  // and the unread
  Wdl probe_value(const Position& p) const;

  std::unique_ptr<probe::Tablebase> tables_;
  std::optional<MappedPagesBound<probe::Tablebase>> pages_;  // of tables_
  std::uint64_t resident_budget_ = 0, resident_bytes_ = 0;
  std::array<std::unique_ptr<Resident>, kSlots> resident_;
  mutable std::atomic<bool> failed_{false};
  mutable std::mutex error_mutex_;
  mutable std::string error_;
};

}  // namespace dtb::gen
