// The true values of finished tables, every one unpacked in memory at 2 bits
// a position: a FinishedValues (solver/finished_values.h) for the tests and
// the solver's benchmark, on sets small enough to hold whole. `dtb gen`
// reads finished tables from their files instead (gen/finished_tables.h), so
// that its memory stays bounded.
//
// The values are the TRUE ones, including positions where the side to move
// must capture (stored as "don't care" on disk): the loader resolves those
// before a table is added (solver/table_loading.h).
//
// Lookups are lock-free and thread-safe; add() must not run concurrently
// with lookups.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "solver/finished_values.h"
#include "solver/table_loading.h"
#include "solver/unit_values.h"
#include "support/large_array.h"
#include "index/material.h"
#include "index/position_index.h"
#include "rules/position.h"
#include "rules/value.h"

namespace dtb::gen {

/// 2 bits per position, 32 positions per 64-bit word.
class PackedWdl {
 public:
  explicit PackedWdl(std::span<const std::uint8_t> values);  // loaded values (table_loading.h)
  Wdl get(std::uint64_t i) const {
    return static_cast<Wdl>((words_[i >> 5] >> ((i & 31) * 2)) & 3);
  }
  std::uint64_t size() const { return size_; }

 private:
  LargeArray<std::uint64_t> words_;  // every word written by the constructor's parallel loop
  std::uint64_t size_ = 0;
};

class WdlStore final : public FinishedValues {
 public:
  WdlStore();
  ~WdlStore() override;
  WdlStore(const WdlStore&) = delete;
  WdlStore& operator=(const WdlStore&) = delete;

  bool contains(const Material& m) const { return entry(m) != nullptr; }
  /// Add a finished table (loaded values, table_loading.h: one per position of m's index).
  void add(const Material& m, std::span<const std::uint8_t> values);
  /// The same from a solved table (unit_solver.h).
  void add(const Material& m, const UnitValues& values);

  /// Value for the side to move of a position of any stored material, either
  /// side to move. A side with no piece left has lost (RULES 7.2), so a
  /// capture of the last opposing piece needs no table.
  Wdl value(const Position& p) const override;
  /// Value of index i of material m (White to move).
  Wdl value_at(const Material& m, std::uint64_t i) const;

  /// The index of a stored material (throws std::logic_error if absent).
  const PositionIndex& index(const Material& m) const;
  std::uint64_t memory_bytes() const { return memory_bytes_; }

 private:
  struct Entry {
    PositionIndex index;
    PackedWdl values;
  };
  // Direct lookup by piece counts (each 0..7): no hashing, no locking.
  static constexpr int kSlots = 8 * 8 * 8 * 8;
  static int slot(const Material& m);
  const Entry* entry(const Material& m) const;

  std::array<std::unique_ptr<Entry>, kSlots> entries_;
  std::uint64_t memory_bytes_ = 0;
};

}  // namespace dtb::gen
