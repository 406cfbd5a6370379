// Where each position's value is stored when a table's values are kept level
// by level: the slices of level 0 first, then those of level 1, and so on,
// each level's slices in increasing order (SliceLevels' order), each slice's
// positions in index order.
//
// Why: the index orders slices by their men, and consecutive slices belong
// to all the levels; a slice of a men-heavy table holds a few hundred
// positions, less than a page of values. Spilled values (unit_values.h)
// keep memory only for the pages the solver touches, and it touches one or
// two levels at a time: only with each level contiguous are those pages
// the level's and not nearly all of them.
//
//   stored(i) = storage_slice(s) * kings_per_slice + (i - s * kings_per_slice),
//   s = i / kings_per_slice,
// with storage_slice the inverse of SliceLevels' concatenated slice list: a
// bijection of [0, size), 4 bytes a slice.
#pragma once

#include <cstdint>
#include <vector>

#include "index/fast_divisor.h"
#include "index/position_index.h"
#include "solver/slice_order.h"

namespace dtb::gen {

class LevelOrder {
 public:
  LevelOrder(const PositionIndex& index, const SliceLevels& levels);

  /// Where position i (index order) is stored.
  std::uint64_t stored(std::uint64_t i) const {
    const std::uint64_t s = slice_div_.quotient(i);
    return i + (std::uint64_t{storage_slice_[s]} - s) * kings_per_slice_;  // unsigned wrap cancels
  }
  /// Where the first position of slice s is stored (the others follow it).
  std::uint64_t slice_start(std::uint64_t s) const { return std::uint64_t{storage_slice_[s]} * kings_per_slice_; }
  std::uint64_t kings_per_slice() const { return kings_per_slice_; }
  std::uint64_t memory_bytes() const { return storage_slice_.size() * sizeof(std::uint32_t); }

 private:
  std::uint64_t kings_per_slice_;
  index_detail::FastDivisor slice_div_;
  std::vector<std::uint32_t> storage_slice_;
};

}  // namespace dtb::gen
